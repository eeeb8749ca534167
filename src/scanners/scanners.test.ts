import { editDistance, looksAlike, normaliseName } from './lookalike.js';
import { MAX_LINE, scanSecrets } from './secrets.js';

const file = (name: string, text: string) => ({ name, data: Buffer.from(text) });

describe('secret rules', () => {
  it('finds each rule with its file and line', () => {
    const findings = scanSecrets([
      file('a.js', 'x\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n'),
      file('b/c.js', `const t = "ghp_${'a'.repeat(36)}";\nconst s = "xoxb-1234567890-abcdef";\n`),
      file('d.json', `{"key": "AIza${'B'.repeat(35)}"}\n`),
      file('e.txt', 'API_KEY: "short"\nclient_secret = \'abcdefghijklmnop\'\n'),
    ]);
    expect(findings).toEqual([
      { rule: 'private_key', file: 'a.js', line: 2 },
      { rule: 'github_token', file: 'b/c.js', line: 1 },
      { rule: 'slack_token', file: 'b/c.js', line: 2 },
      { rule: 'google_api_key', file: 'd.json', line: 1 },
      { rule: 'generic_api_key', file: 'e.txt', line: 2 },
    ]);
  });

  it('skips binary files and bounds long lines (linear time on hostile input)', () => {
    expect(scanSecrets([{ name: 'x.png', data: Buffer.from([0, 65, 75, 73, 65]) }])).toEqual([]);
    const hostile = `api_key = "${'a'.repeat(5_000_000)}`;
    const started = Date.now();
    expect(scanSecrets([file('big.js', hostile)])).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1000);
    const late = `${' '.repeat(MAX_LINE)}AKIAIOSFODNN7EXAMPLE`;
    expect(scanSecrets([file('late.js', late)])).toEqual([]);
  });
});

describe('look-alike names', () => {
  const marks = ['Vendor', 'Browser'];
  it('normalises case, accents, confusables, separators and the trademark words', () => {
    expect(normaliseName('Pässwörd Keeper', marks)).toBe('passwordkeeper');
    expect(normaliseName('PASSW0RD-KEEPER', marks)).toBe('passwordkeeper');
    expect(normaliseName('Раsswоrd Keeper', marks)).toBe('passwordkeeper'); // Cyrillic Р, а, о
    expect(normaliseName('Vendor Password Keeper for Browser', marks)).toBe('passwordkeeperfor');
    expect(normaliseName('Modern Tabs', marks)).toBe(normaliseName('Modem Tabs', marks));
    expect(normaliseName('uBlock 1ite', marks)).toBe(normaliseName('uBlock Lite', marks));
  });

  it('is equal, or one edit apart when long enough', () => {
    expect(looksAlike('passwordkeeper', 'passwordkeeper')).toBe(true);
    expect(looksAlike('passwordkeeper', 'passwordkeepers')).toBe(true);
    expect(looksAlike('passwordkeeper', 'passwordkeeperz2')).toBe(false);
    expect(looksAlike('tabs', 'taps')).toBe(false);
    expect(looksAlike('tabs', 'tabs')).toBe(true);
    expect(looksAlike('', '')).toBe(false);
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
  });
});
