import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { buffer } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { Keyring } from '../../core/secrets.js';
import { authorityPaths, loadOrCreateAuthority, type AuthorityOptions } from './authority.js';
import { makeOpensslCa, openssl, tempDir } from './__tests__/helpers.js';

const box = new Keyring('k'.repeat(40)).box('signing-ca');
const YEAR_MS = 365.25 * 24 * 60 * 60 * 1000;

describe('loadOrCreateAuthority', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir('signing-ca-')));
  afterEach(() => dir.cleanup());

  const options = (extra: Partial<AuthorityOptions> = {}): AuthorityOptions => ({
    dataDir: dir.path,
    commonName: 'Example Add-ons Root CA',
    box,
    keyBits: 2048,
    ...extra,
  });

  it('creates a CA on first start, sealed at rest, and loads the same one afterwards', async () => {
    const first = await loadOrCreateAuthority(options({ keyBits: undefined }));
    expect(first.source).toBe('generated');
    const paths = authorityPaths(dir.path);
    expect(statSync(paths.sealedKey).mode & 0o777).toBe(0o600);
    const sealed = readFileSync(paths.sealedKey, 'utf8');
    expect(sealed).not.toContain('PRIVATE KEY');
    expect(readFileSync(paths.certificate, 'utf8')).toBe(first.certificatePem);

    const second = await loadOrCreateAuthority(options());
    expect(second.source).toBe('stored');
    expect(second.fingerprint).toBe(first.fingerprint);
    expect(second.privateKey.export({ type: 'pkcs8', format: 'pem' })).toEqual(
      first.privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    expect(first.privateKey.asymmetricKeyDetails?.modulusLength).toBe(4096);
  });

  it('has a root CA profile that strict OpenSSL accepts', async () => {
    const ca = await loadOrCreateAuthority(options());
    const x509 = new X509Certificate(ca.certificatePem);
    expect(x509.ca).toBe(true);
    expect(x509.subject).toBe('CN=Example Add-ons Root CA');
    expect(x509.issuer).toBe(x509.subject);
    const years = (Date.parse(x509.validTo) - Date.parse(x509.validFrom)) / YEAR_MS;
    expect(years).toBeCloseTo(10, 1);
    expect(/^[0-7]/.test(x509.serialNumber)).toBe(true);

    const text = openssl(['x509', '-noout', '-text'], Buffer.from(ca.certificatePem)).stdout;
    expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE/);
    expect(text).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
    expect(text).toContain('Subject Key Identifier');
    expect(text).toContain('sha256WithRSAEncryption');
    const caFile = dir.file('ca.pem', ca.certificatePem);
    const verified = openssl(['verify', '-x509_strict', '-CAfile', caFile, caFile]);
    expect(verified.stderr).toBe('');
    expect(verified.ok).toBe(true);
  });

  it('ends up with one CA when several first starts race', async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => loadOrCreateAuthority(options())));
    expect(new Set(results.map((ca) => ca.fingerprint)).size).toBe(1);
    expect(results.filter((ca) => ca.source === 'generated')).toHaveLength(1);
    expect(readdirSync(`${dir.path}/signing`)).toEqual(['ca']);
  });

  it('ends up with one CA when several processes start at once', async () => {
    const script = fileURLToPath(new URL('./__tests__/create-authority.ts', import.meta.url));
    const runs = [1, 2, 3].map(async () => {
      const child = spawn(
        process.execPath,
        ['--no-warnings', '--import', '@swc-node/register/esm-register', script, dir.path],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const output = await buffer(child.stdout);
      return JSON.parse(output.toString('utf8')) as { fingerprint: string; source: string };
    });
    const results = await Promise.all(runs);
    expect(new Set(results.map((result) => result.fingerprint)).size).toBe(1);
    const stored = await loadOrCreateAuthority(options());
    expect(stored.fingerprint).toBe(results[0]?.fingerprint);
    expect(readdirSync(`${dir.path}/signing`)).toEqual(['ca']);
  });

  it('refuses a sealed key it cannot open', async () => {
    await loadOrCreateAuthority(options());
    const other = new Keyring('z'.repeat(40)).box('signing-ca');
    await expect(loadOrCreateAuthority(options({ box: other }))).rejects.toThrow(/Cannot open/);
  });

  it('uses a configured PEM pair as given and writes nothing', async () => {
    const configured = makeOpensslCa(dir, 'Configured Root');
    const ca = await loadOrCreateAuthority(options({ ...configured, box: undefined }));
    expect(ca.source).toBe('configured');
    expect(ca.certificatePem).toBe(new X509Certificate(configured.certPem).toString());
    expect(ca.fingerprint).toBe(fingerprintOf(configured.certPem));
    expect(readdirSync(dir.path).includes('signing')).toBe(false);
  });

  it('rejects a configured key that does not match, or half a pair', async () => {
    const a = makeOpensslCa(dir, 'A');
    const b = makeOpensslCa(dir, 'B');
    await expect(loadOrCreateAuthority(options({ certPem: a.certPem, keyPem: b.keyPem }))).rejects.toThrow(
      /does not match/,
    );
    await expect(loadOrCreateAuthority(options({ certPem: a.certPem }))).rejects.toThrow(/both/);
  });
});

function fingerprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint256.replace(/:/g, '').toLowerCase();
}
