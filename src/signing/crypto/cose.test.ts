import { createHash, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { createRequire } from 'node:module';
import { decode, encode, Tag } from 'cbor2';
import { Keyring } from '../../core/secrets.js';
import { loadOrCreateAuthority, type CertificateAuthority } from './authority.js';
import { signCose } from './cose.js';
import { manifestFile } from './jar-manifest.js';
import { AddonSigner } from './signer.js';
import {
  COSE_MANIFEST_PATH,
  COSE_SIGNATURE_PATH,
  MANIFEST_PATH,
  SIGNATURE_FILE_PATH,
  SIGNATURE_PATH,
  signPackage,
  type PackageEntry,
} from './sign-package.js';
import { decodeCoseSignature, verifyCoseSignature } from './__tests__/cose-verifier.js';
import { makeOpensslCa, openssl, parseManifestSections, tempDir, unzip, type Unzipped } from './__tests__/helpers.js';

/** cose-js 0.9.0 (an independent COSE implementation, on node-cbor and elliptic), untyped CommonJS. */
interface CoseJs {
  sign: {
    verify(message: Buffer, verifier: { key: { x: Buffer; y: Buffer; kid: string } }): Promise<Buffer>;
  };
}
const coseJs = createRequire(import.meta.url)('cose-js') as CoseJs;

const GUID = 'cose-test@example.org';
const INPUT: PackageEntry[] = [
  { name: 'manifest.json', data: Buffer.from(JSON.stringify({ manifest_version: 2, name: 'COSE' })) },
  { name: 'META-INF/cose.sig', data: Buffer.from('stale') },
  { name: 'background.js', data: Buffer.from('console.log(1);\n') },
  { name: 'META-INF/notes.txt', data: Buffer.from('not a signature file, so signed') },
  { name: `lib/${'long-directory-name/'.repeat(4)}ünïcödé.js`, data: Buffer.from('export {};\n') },
];
const SIGNED_NAMES = ['manifest.json', 'background.js', 'META-INF/notes.txt', INPUT[4]!.name];

describe('COSE signatures', () => {
  const dir = tempDir('cose-');
  let ca: CertificateAuthority;
  let caCert: X509Certificate;
  let signer: AddonSigner;
  let zip: Unzipped;

  beforeAll(async () => {
    const box = new Keyring('k'.repeat(40)).box('signing-ca');
    ca = await loadOrCreateAuthority({ dataDir: dir.path, commonName: 'Example Add-ons Root CA', box, keyBits: 2048 });
    caCert = new X509Certificate(ca.certificateDer);
    signer = AddonSigner.start(ca, { poolSize: 1 });
    zip = await unzip(await signPackage(INPUT, { guid: GUID, signer }));
  });
  afterAll(async () => {
    await signer.close();
    dir.cleanup();
  });

  const file = (name: string): Buffer => {
    const data = zip.files.get(name);
    if (!data) throw new Error(`${name} missing from the signed package`);
    return data;
  };

  it('adds cose.manifest and cose.sig before the PKCS#7 manifest and signature file', () => {
    expect(zip.names).toEqual([
      SIGNATURE_PATH,
      ...SIGNED_NAMES,
      COSE_MANIFEST_PATH,
      COSE_SIGNATURE_PATH,
      MANIFEST_PATH,
      SIGNATURE_FILE_PATH,
    ]);
  });

  it('lists the add-on files in cose.manifest, and those plus the COSE files in manifest.mf', () => {
    const coseManifest = file(COSE_MANIFEST_PATH);
    const [main, ...sections] = parseManifestSections(coseManifest.toString('utf8'));
    expect(main).toEqual(new Map([['Manifest-Version', '1.0']]));
    expect(sections.map((section) => section.get('Name'))).toEqual(SIGNED_NAMES);
    for (const section of sections) {
      const data = file(section.get('Name') ?? '');
      expect(section.get('SHA256-Digest')).toBe(createHash('sha256').update(data).digest('base64'));
      expect(section.get('SHA1-Digest')).toBe(createHash('sha1').update(data).digest('base64'));
    }

    // manifest.mf is cose.manifest followed by sections for the two COSE files (as autograph writes it).
    const manifest = file(MANIFEST_PATH);
    expect(manifest.subarray(0, coseManifest.length)).toEqual(coseManifest);
    const extra = parseManifestSections(manifest.toString('utf8')).slice(1 + SIGNED_NAMES.length);
    expect(extra.map((section) => section.get('Name'))).toEqual([COSE_MANIFEST_PATH, COSE_SIGNATURE_PATH]);
    for (const section of extra) {
      const data = file(section.get('Name') ?? '');
      expect(section.get('SHA256-Digest')).toBe(createHash('sha256').update(data).digest('base64'));
    }
    const sf = file(SIGNATURE_FILE_PATH).toString('utf8');
    expect(sf).toContain(`SHA256-Digest-Manifest: ${createHash('sha256').update(manifest).digest('base64')}\n`);
  });

  it('keeps a PKCS#7 signature over mozilla.sf that openssl verifies against the CA', () => {
    const result = openssl(
      [
        'cms',
        '-verify',
        '-inform',
        'DER',
        '-in',
        dir.file('mozilla.rsa', file(SIGNATURE_PATH)),
        '-content',
        dir.file('mozilla.sf', file(SIGNATURE_FILE_PATH)),
        '-binary',
        '-CAfile',
        dir.file('ca.pem', ca.certificatePem),
        '-purpose',
        'any',
        '-out',
        dir.file('cms.out'),
      ],
      undefined,
    );
    expect(result.stderr).toContain('Verification successful');
    expect(result.ok).toBe(true);
  });

  it('writes a tagged COSE_Sign in the browser format: certificates in kid, ES256, detached payload', () => {
    const coseSig = file(COSE_SIGNATURE_PATH);
    expect(coseSig.subarray(0, 3)).toEqual(Buffer.from([0xd8, 0x62, 0x84])); // tag 98, array of 4
    const message = decode(coseSig, { preferMap: true }) as Tag;
    const [bodyProtected, unprotected, payload, signatures] = message.contents as [
      Uint8Array,
      Map<number, unknown>,
      null,
      [Uint8Array, Map<number, unknown>, Uint8Array][],
    ];
    expect(decode(bodyProtected, { preferMap: true })).toEqual(new Map([[4, [new Uint8Array(ca.certificateDer)]]]));
    expect(unprotected).toEqual(new Map());
    expect(payload).toBeNull();
    expect(signatures).toHaveLength(1);
    const [signatureProtected, signatureUnprotected, signature] = signatures[0]!;
    const decoded = decodeCoseSignature(coseSig);
    // {1: -7, 4: h'<end-entity DER>'}, alg first, as cose-rust and autograph encode it.
    expect(Buffer.from(signatureProtected).subarray(0, 4)).toEqual(Buffer.from([0xa2, 0x01, 0x26, 0x04]));
    expect(decode(signatureProtected, { preferMap: true })).toEqual(
      new Map<number, unknown>([
        [1, -7],
        [4, new Uint8Array(decoded.signatures[0]!.certificate)],
      ]),
    );
    expect(signatureUnprotected).toEqual(new Map());
    expect(signature).toHaveLength(64); // r || s for P-256
  });

  it('signs with a fresh P-256 end-entity certificate for the add-on ID, issued by the CA', () => {
    const { signatures, intermediates } = decodeCoseSignature(file(COSE_SIGNATURE_PATH));
    expect(intermediates).toEqual([ca.certificateDer]);
    const ee = new X509Certificate(signatures[0]!.certificate);
    expect(ee.subject).toBe(`O=Addons\nOU=Production\nCN=${GUID}`);
    expect(ee.issuer).toBe(caCert.subject);
    expect(ee.ca).toBe(false);
    expect(ee.keyUsage).toEqual(['1.3.6.1.5.5.7.3.3']);
    expect(ee.publicKey.asymmetricKeyType).toBe('ec');
    expect(ee.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(ee.checkIssued(caCert)).toBe(true);
    expect(ee.verify(caCert.publicKey)).toBe(true);

    const eeFile = dir.file('cose-ee.pem', ee.toString());
    const verified = openssl(['verify', '-x509_strict', '-purpose', 'any', '-CAfile', dir.file('ca.pem'), eeFile]);
    expect(verified.stdout).toContain(': OK');
    const text = openssl(['x509', '-noout', '-text', '-in', eeFile]).stdout;
    expect(text).toContain('Public Key Algorithm: id-ecPublicKey');
    expect(text).toContain('NIST CURVE: P-256');
    expect(text).toContain('Signature Algorithm: sha256WithRSAEncryption');
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature/);
    expect(text).toMatch(/Extended Key Usage:\s+Code Signing/);
    // RFC 5280 method 1: SHA-1 of the uncompressed point.
    const jwk = ee.publicKey.export({ format: 'jwk' });
    const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
    const ski = createHash('sha1')
      .update(point)
      .digest('hex')
      .toUpperCase()
      .replace(/(..)(?!$)/g, '$1:');
    expect(text).toMatch(new RegExp(`Subject Key Identifier:\\s+${ski}`));
    const caText = openssl(['x509', '-noout', '-text', '-in', dir.file('ca.pem')]).stdout;
    const caSki = /Subject Key Identifier:\s+([0-9A-F:]+)/.exec(caText)?.[1];
    expect(text).toMatch(new RegExp(`Authority Key Identifier:\\s+(keyid:)?${caSki}`));

    // The PKCS#7 end-entity certificate is another one, with an RSA key.
    const pkcs7Certs = openssl(['pkcs7', '-inform', 'DER', '-print_certs'], file(SIGNATURE_PATH)).stdout;
    const [pkcs7Ee] = pkcs7Certs.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
    expect(new X509Certificate(pkcs7Ee!).publicKey.asymmetricKeyType).toBe('rsa');
  });

  it('verifies with cose-js, an independent implementation, and fails there once anything changes', async () => {
    const coseSig = file(COSE_SIGNATURE_PATH);
    const coseManifest = file(COSE_MANIFEST_PATH);
    const ee = new X509Certificate(decodeCoseSignature(coseSig).signatures[0]!.certificate);
    const jwk = ee.publicKey.export({ format: 'jwk' });
    const key = { x: Buffer.from(jwk.x!, 'base64url'), y: Buffer.from(jwk.y!, 'base64url'), kid: 'signer' };

    await expect(coseJs.sign.verify(forCoseJs(coseSig, coseManifest), { key })).resolves.toEqual(coseManifest);

    const otherManifest = Buffer.from(coseManifest);
    otherManifest[otherManifest.length - 3] ^= 0x01;
    await expect(coseJs.sign.verify(forCoseJs(coseSig, otherManifest), { key })).rejects.toThrow(/missmatch/);
    const otherSignature = Buffer.from(coseSig);
    otherSignature[otherSignature.length - 1] ^= 0x01;
    await expect(coseJs.sign.verify(forCoseJs(otherSignature, coseManifest), { key })).rejects.toThrow(/missmatch/);
  });

  it('verifies with the test verifier (Firefox rules), which refuses a changed manifest or signature', () => {
    const coseSig = file(COSE_SIGNATURE_PATH);
    const coseManifest = file(COSE_MANIFEST_PATH);
    expect(verifyCoseSignature(coseSig, coseManifest, caCert).subject).toContain(`CN=${GUID}`);

    const otherManifest = Buffer.from(coseManifest);
    otherManifest[40] ^= 0x01;
    expect(() => verifyCoseSignature(coseSig, otherManifest, caCert)).toThrow(/does not verify/);
    const otherSignature = Buffer.from(coseSig);
    otherSignature[otherSignature.length - 10] ^= 0x01;
    expect(() => verifyCoseSignature(otherSignature, coseManifest, caCert)).toThrow(/does not verify/);
    const foreign = new X509Certificate(makeOpensslCa(dir, 'Foreign CA').certPem);
    expect(() => verifyCoseSignature(coseSig, coseManifest, foreign)).toThrow(/chain/);
  });

  it('refuses keys other than P-256', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const input = { manifest: Buffer.from('x'), signerCertificate: ca.certificateDer, intermediates: [] };
    expect(() => signCose({ ...input, signerKey: privateKey })).toThrow(/P-256/);
    expect(() => signCose({ ...input, signerKey: ca.privateKey })).toThrow(/P-256/);
  });

  it('signs the exact cose.manifest bytes an empty add-on would list', async () => {
    const empty = await unzip(await signPackage([], { guid: GUID, signer }));
    expect(empty.files.get(COSE_MANIFEST_PATH)).toEqual(manifestFile([]));
    const verified = verifyCoseSignature(
      empty.files.get(COSE_SIGNATURE_PATH)!,
      empty.files.get(COSE_MANIFEST_PATH)!,
      caCert,
    );
    expect(verified.subject).toContain(`CN=${GUID}`);
  });
});

/**
 * The same message in the form cose-js 0.9.0 can check. It has no detached-payload option (it signs
 * over the message's own payload) and finds a signer by a UTF-8 kid in the signature's unprotected
 * header, so the manifest is put back as the payload and a lookup kid added unprotected. Neither is
 * covered by the signature (RFC 8152 4.4: the Sig_structure holds the protected headers and the
 * payload bytes, detached or not), so cose-js checks the very signature the package carries.
 */
function forCoseJs(coseSig: Buffer, payload: Buffer): Buffer {
  const message = decode(new Uint8Array(coseSig), { preferMap: true }) as Tag;
  const [bodyProtected, unprotected, , signatures] = message.contents as [
    Uint8Array,
    Map<number, unknown>,
    null,
    [Uint8Array, Map<number, unknown>, Uint8Array][],
  ];
  const lookup = signatures.map(([signatureProtected, , signature]) => [
    signatureProtected,
    new Map([[4, new TextEncoder().encode('signer')]]),
    signature,
  ]);
  const encoded = encode(new Tag(98, [bodyProtected, unprotected, new Uint8Array(payload), lookup]));
  return Buffer.from(encoded);
}
