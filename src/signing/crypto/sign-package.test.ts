import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Keyring } from '../../core/secrets.js';
import { loadOrCreateAuthority, type CertificateAuthority } from './authority.js';
import { sha256Hex, signedFileHash } from './digest.js';
import { AddonSigner } from './signer.js';
import {
  COSE_MANIFEST_PATH,
  COSE_SIGNATURE_PATH,
  MANIFEST_PATH,
  SIGNATURE_FILE_PATH,
  SIGNATURE_PATH,
  packageFiles,
  signPackage,
  type PackageEntry,
} from './sign-package.js';
import { tbsFields, tbsOf, derBuffer } from './x509.js';
import { makeOpensslCa, openssl, parseManifestSections, tempDir, unzip, type Unzipped } from './__tests__/helpers.js';

const GUID = 'tab-sorter@example.org';
const LONG_PATH = `content/${'deeply-nested-folder/'.repeat(4)}scripts/ünïcödé-module.js`;

const INPUT: PackageEntry[] = [
  { name: 'manifest.json', data: Buffer.from(JSON.stringify({ manifest_version: 2, name: 'Tab sorter' })) },
  { name: 'META-INF/mozilla.rsa', data: Buffer.from('stale signature') },
  { name: 'background.js', data: Buffer.from('browser.tabs.query({}).then(console.log);\n') },
  { name: '_locales/de/messages.json', data: Buffer.from('{"name":{"message":"Tab-Sortierer"}}') },
  { name: 'icons/größe-😀.png', data: randomBytes(3000) },
  { name: 'META-INF/manifest.mf', data: Buffer.from('Manifest-Version: 1.0\n') },
  { name: 'META-INF/cose.sig', data: Buffer.from('x') },
  { name: 'META-INF/cose.manifest', data: Buffer.from('x') },
  { name: 'META-INF/mozilla.sf', data: Buffer.from('x') },
  { name: 'icons/', data: Buffer.alloc(0) },
  { name: LONG_PATH, data: Buffer.from('export {};\n') },
  { name: 'empty.txt', data: Buffer.alloc(0) },
];
const SIGNED_NAMES = [
  'manifest.json',
  'background.js',
  '_locales/de/messages.json',
  'icons/größe-😀.png',
  LONG_PATH,
  'empty.txt',
];

describe('signPackage', () => {
  const dir = tempDir('sign-package-');
  let ca: CertificateAuthority;
  let signer: AddonSigner;
  let caFile: string;
  let signed: Buffer;
  let unzipped: Unzipped;

  beforeAll(async () => {
    const box = new Keyring('k'.repeat(40)).box('signing-ca');
    ca = await loadOrCreateAuthority({ dataDir: dir.path, commonName: 'Example Add-ons Root CA', box, keyBits: 2048 });
    caFile = dir.file('ca.pem', ca.certificatePem);
    signer = AddonSigner.start(ca, { poolSize: 4 });
    signed = await signPackage(INPUT, { guid: GUID, signer });
    unzipped = await unzip(signed);
  });
  afterAll(async () => {
    await signer.close();
    dir.cleanup();
  });

  const file = (name: string): Buffer => {
    const data = unzipped.files.get(name);
    if (!data) throw new Error(`${name} missing from the signed package`);
    return data;
  };

  it('puts mozilla.rsa first, then the files in input order, the COSE files, manifest.mf and mozilla.sf', () => {
    expect(unzipped.names).toEqual([
      SIGNATURE_PATH,
      ...SIGNED_NAMES,
      COSE_MANIFEST_PATH,
      COSE_SIGNATURE_PATH,
      MANIFEST_PATH,
      SIGNATURE_FILE_PATH,
    ]);
    expect(unzipped.entries.every((entry) => entry.compressionMethod === 8)).toBe(true);
    for (const name of SIGNED_NAMES) {
      expect(file(name)).toEqual(INPUT.find((entry) => entry.name === name)?.data);
    }
  });

  it('lists every file with SHA-1 and SHA-256 digests that match its contents', () => {
    const text = file(MANIFEST_PATH).toString('utf8');
    expect(text.startsWith('Manifest-Version: 1.0\n\nName: manifest.json\nDigest-Algorithms: SHA1 SHA256\n')).toBe(
      true,
    );
    expect(text).not.toContain('\r');
    expect(text.split('\n').every((line) => Buffer.byteLength(line) <= 72)).toBe(true);
    const [main, ...sections] = parseManifestSections(text);
    expect(main).toEqual(new Map([['Manifest-Version', '1.0']]));
    expect(sections.map((section) => section.get('Name'))).toEqual([
      ...SIGNED_NAMES,
      COSE_MANIFEST_PATH,
      COSE_SIGNATURE_PATH,
    ]);
    for (const section of sections) {
      const data = file(section.get('Name') ?? '');
      expect(section.get('Digest-Algorithms')).toBe('SHA1 SHA256');
      expect(section.get('SHA1-Digest')).toBe(createHash('sha1').update(data).digest('base64'));
      expect(section.get('SHA256-Digest')).toBe(createHash('sha256').update(data).digest('base64'));
    }
  });

  it('digests the exact manifest bytes in mozilla.sf', () => {
    const manifest = file(MANIFEST_PATH);
    const sf = file(SIGNATURE_FILE_PATH).toString('utf8');
    expect(sf).toBe(
      'Signature-Version: 1.0\n' +
        `SHA1-Digest-Manifest: ${createHash('sha1').update(manifest).digest('base64')}\n` +
        `SHA256-Digest-Manifest: ${createHash('sha256').update(manifest).digest('base64')}\n\n`,
    );
  });

  it('has a detached PKCS#7 signature over mozilla.sf that openssl verifies against the CA', () => {
    const result = verifyCms(file(SIGNATURE_PATH), file(SIGNATURE_FILE_PATH));
    expect(result.stderr).toContain('Verification successful');
    expect(result.ok).toBe(true);
  });

  it('fails verification when one byte of mozilla.sf changes', () => {
    const tampered = Buffer.from(file(SIGNATURE_FILE_PATH));
    tampered[30] = tampered[30]! ^ 0x01;
    const result = verifyCms(file(SIGNATURE_PATH), tampered);
    expect(result.ok).toBe(false);
    expect(result.stderr).toMatch(/digest failure|Verification failure/i);
  });

  it('uses SHA-256 and signed content-type, signing-time and message-digest attributes', () => {
    const printed = openssl(['cms', '-cmsout', '-print', '-inform', 'DER'], file(SIGNATURE_PATH)).stdout;
    expect(printed).toContain('contentType: pkcs7-signedData');
    expect(printed).toMatch(/digestAlgorithm:\s+algorithm: sha256/);
    expect(printed).toContain('eContent: <ABSENT>');
    for (const attribute of ['contentType', 'signingTime', 'messageDigest']) {
      expect(printed).toContain(`object: ${attribute}`);
    }
  });

  it('signs with an end-entity certificate for the add-on ID that chains to the CA', () => {
    const signerFile = dir.file('signer.pem');
    expect(verifyCms(file(SIGNATURE_PATH), file(SIGNATURE_FILE_PATH), ['-signer', signerFile]).ok).toBe(true);
    const ee = new X509Certificate(readFileSync(signerFile));
    expect(ee.subject).toBe(`O=Addons\nOU=Production\nCN=${GUID}`);
    expect(ee.issuer).toBe('CN=Example Add-ons Root CA');
    expect(ee.ca).toBe(false);
    expect(ee.keyUsage).toEqual(['1.3.6.1.5.5.7.3.3']);
    expect(ee.publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const verified = openssl(['verify', '-x509_strict', '-purpose', 'any', '-CAfile', caFile, signerFile]);
    expect(verified.stdout).toContain(': OK');
    const text = openssl(['x509', '-noout', '-text', '-in', signerFile]).stdout;
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature/);
    expect(text).toMatch(/Extended Key Usage:\s+Code Signing/);
    expect(text).toContain('Authority Key Identifier');
    expect(text).toContain('sha256WithRSAEncryption');
  });

  it('ships the end-entity certificate and the CA certificate in mozilla.rsa', () => {
    const certs = openssl(['pkcs7', '-inform', 'DER', '-print_certs', '-noout'], file(SIGNATURE_PATH)).stdout;
    expect(certs).toContain(`subject=O = Addons, OU = Production, CN = ${GUID}`);
    expect(certs).toContain('subject=CN = Example Add-ons Root CA');
  });

  it('drops existing signature files and directory entries, and refuses ambiguous names', () => {
    expect(packageFiles(INPUT).map((entry) => entry.name)).toEqual(SIGNED_NAMES);
    const entry = (name: string): PackageEntry => ({ name, data: Buffer.from('x') });
    expect(packageFiles([entry('META-INF/other.RSA'), entry('META-INF/SIG-x'), entry('META-INF/a.txt')])).toEqual([
      entry('META-INF/a.txt'),
    ]);
    expect(() => packageFiles([entry('a.js'), entry('a.js')])).toThrow(/Duplicate/);
    expect(() => packageFiles([entry('a\\b.js'), entry('a/b.js')])).toThrow(/Duplicate/);
    expect(() => packageFiles([entry('line\nbreak.js')])).toThrow(/Cannot sign/);
  });

  it('names long add-on IDs by their SHA-256, as Firefox expects', async () => {
    const guid = `${'x'.repeat(60)}@example.org`;
    const zip = await unzip(await signPackage([{ name: 'a.js', data: Buffer.from('1') }], { guid, signer }));
    const signerFile = dir.file('long-signer.pem');
    const rsa = zip.files.get(SIGNATURE_PATH) ?? Buffer.alloc(0);
    const sf = zip.files.get(SIGNATURE_FILE_PATH) ?? Buffer.alloc(0);
    expect(verifyCms(rsa, sf, ['-signer', signerFile]).ok).toBe(true);
    expect(new X509Certificate(readFileSync(signerFile)).subject).toContain(`CN=${sha256Hex(Buffer.from(guid))}`);
  });

  it('signs under a configured CA, naming it exactly as its certificate does', async () => {
    const configured = makeOpensslCa(dir, 'Configured Root');
    const other = AddonSigner.start(await loadOrCreateAuthority({ dataDir: dir.path, commonName: '', ...configured }));
    try {
      const zip = await unzip(await signPackage(INPUT, { guid: GUID, signer: other }));
      const rsa = zip.files.get(SIGNATURE_PATH) ?? Buffer.alloc(0);
      const sf = zip.files.get(SIGNATURE_FILE_PATH) ?? Buffer.alloc(0);
      const signerFile = dir.file('configured-signer.pem');
      const configuredCa = dir.file('configured-ca.pem', configured.certPem);
      expect(verifyCms(rsa, sf, ['-signer', signerFile], configuredCa).ok).toBe(true);
      expect(verifyCms(rsa, sf, [], caFile).ok).toBe(false);

      const eeIssuer = tbsFields(tbsOf(new X509Certificate(readFileSync(signerFile)).raw)).issuer;
      const caSubject = tbsFields(tbsOf(new X509Certificate(configured.certPem).raw)).subject;
      expect(derBuffer(eeIssuer)).toEqual(derBuffer(caSubject));
      const strict = openssl(['verify', '-x509_strict', '-purpose', 'any', '-CAfile', configuredCa, signerFile]);
      expect(strict.stdout).toContain(': OK');
    } finally {
      await other.close();
    }
  });

  it('hashes the signed bytes for files[].hash', () => {
    expect(signedFileHash(signed)).toBe(`sha256:${createHash('sha256').update(signed).digest('hex')}`);
  });

  it('signs 20 packages in a row without waiting on key generation', async () => {
    const measure = async (poolSize: number): Promise<number> => {
      const timed = AddonSigner.start(ca, { poolSize });
      await timed.ready();
      const started = performance.now();
      for (let i = 0; i < 20; i += 1) await signPackage(INPUT, { guid: `addon-${i}@example.org`, signer: timed });
      const perSignature = (performance.now() - started) / 20;
      await timed.close();
      return perSignature;
    };
    const warm = await measure(20);
    const defaultPool = await measure(8);
    console.log(
      `signPackage: ${warm.toFixed(1)} ms per signature with keys ready, ` +
        `${defaultPool.toFixed(1)} ms with the default pool of 8 (12 of 20 wait for a key)`,
    );
    expect(warm).toBeGreaterThan(0);
  });

  function verifyCms(signature: Buffer, content: Buffer, extra: string[] = [], trusted = caFile) {
    const rsa = dir.file(`verify-${process.hrtime.bigint()}.rsa`, signature);
    const sf = dir.file(`verify-${process.hrtime.bigint()}.sf`, content);
    return openssl([
      'cms',
      '-verify',
      '-inform',
      'DER',
      '-in',
      rsa,
      '-content',
      sf,
      '-binary',
      '-CAfile',
      trusted,
      '-purpose',
      'any',
      '-out',
      dir.file('verified.out'),
      ...extra,
    ]);
  }
});
