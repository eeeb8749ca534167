import { MAX_OWN_NAMES, nameSkeletons, probeKeys, storedKeys } from './lookalike-keys.js';
import { editDistance, looksAlike, normaliseName } from './lookalike.js';
import { MAX_LINE, scanSecrets } from './secrets.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipFiles } from '../signing/package/__tests__/zip-builder.js';
import { centralDirectory, scanChangedSecrets } from './changed-files.js';

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

describe('secrets on what changed since the previous version', () => {
  const key = `ghp_${'a'.repeat(36)}`;
  const v1 = {
    'manifest.json': '{}',
    'lib/keep.js': `const t = "${key}";\n`,
    'lib/edit.js': 'const x = 1;\n',
  };

  it('reads the previous package’s names, sizes and CRC-32s from its central directory alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'changed-files-'));
    try {
      const path = join(dir, 'v1.xpi');
      writeFileSync(path, await zipFiles(v1));
      const members = await centralDirectory(path);
      expect([...members!.keys()]).toEqual(['manifest.json', 'lib/keep.js', 'lib/edit.js']);
      writeFileSync(join(dir, 'bad.xpi'), 'not a zip');
      expect(await centralDirectory(join(dir, 'bad.xpi'))).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('scans changed files only, keeps unchanged files’ findings: the same findings as a full scan', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'changed-files-'));
    try {
      const path = join(dir, 'v1.xpi');
      writeFileSync(path, await zipFiles(v1));
      const previous = {
        members: (await centralDirectory(path))!,
        findings: scanSecrets(Object.entries(v1).map(([n, t]) => file(n, t))),
      };
      expect(previous.findings).toEqual([{ rule: 'github_token', file: 'lib/keep.js', line: 1 }]);
      const v2 = [
        file('manifest.json', '{}'),
        file('lib/keep.js', v1['lib/keep.js']),
        file('lib/edit.js', `const x = 2;\nconst s = "xoxb-1234567890-abcdef";\n`),
        file('lib/new.js', '-----BEGIN PRIVATE KEY-----\n'),
      ];
      const { findings, scanned } = scanChangedSecrets(v2, previous);
      expect(findings).toEqual(scanSecrets(v2));
      expect(findings).toEqual([
        { rule: 'github_token', file: 'lib/keep.js', line: 1 },
        { rule: 'slack_token', file: 'lib/edit.js', line: 2 },
        { rule: 'private_key', file: 'lib/new.js', line: 1 },
      ]);
      // manifest.json and lib/keep.js are unchanged: not scanned again.
      expect(scanned).toBe(2);
      // Without a previous package, everything is scanned.
      expect(scanChangedSecrets(v2, null)).toEqual({ findings: scanSecrets(v2), scanned: 4 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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

describe('look-alike keys (the index of names)', () => {
  const shares = (a: string, b: string) => {
    const stored = new Set(storedKeys([b]));
    return probeKeys(a).some((key) => stored.has(key));
  };
  // A small alphabet, so that random names often share halves.
  const alphabet = 'abcdeé𝐱';
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const word = () => Array.from({ length: 3 + random(12) }, () => alphabet[random(alphabet.length)]).join('');
  const edit = (s: string) => {
    const i = random(s.length + 1);
    const c = alphabet[random(alphabet.length)]!;
    const kind = random(3);
    return kind === 0
      ? s.slice(0, i) + c + s.slice(i)
      : kind === 1
        ? s.slice(0, i) + c + s.slice(i + 1)
        : s.slice(0, i) + s.slice(i + 1);
  };

  it('every look-alike pair shares a key (no misses), whichever side is stored', () => {
    let alike = 0;
    for (let n = 0; n < 20_000; n++) {
      const a = word();
      const b = random(4) === 0 ? word() : edit(a);
      if (!looksAlike(a, b)) continue;
      alike++;
      expect([a, b, shares(a, b)]).toEqual([a, b, true]);
      expect([b, a, shares(b, a)]).toEqual([b, a, true]);
    }
    expect(alike).toBeGreaterThan(5_000);
  });

  it('keeps short names to equality, and the own names to MAX_OWN_NAMES, default locale first', () => {
    expect(probeKeys('tabs')).toEqual(['=tabs']);
    expect(storedKeys(['tabs'])).toEqual(['=tabs']);
    expect(shares('passwordkeeper', 'passwordkeepers')).toBe(true);
    expect(shares('passwordkeeper', 'keeperpassword')).toBe(false);
    const names = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`l${i}`, `Name number ${i}x`]));
    const own = nameSkeletons(names, [], 'l29').slice(0, MAX_OWN_NAMES);
    expect(own).toHaveLength(MAX_OWN_NAMES);
    expect(own[0]).toBe(normaliseName('Name number 29x', []));
  });
});
