// A COSE verifier for the tests, written from Firefox's rules (security/manager/ssl/
// AppSignatureVerification.cpp with cose-rust) rather than from ../cose.ts: it decodes cose.sig,
// insists on the add-on format, rebuilds each Sig_structure itself and checks it with node:crypto,
// chains the end-entity certificate to the CA, and checks cose.manifest against the archive.
// Byte strings are tested with isUint8Array, which holds across realms (Jest runs tests in a vm
// context whose Uint8Array is not Node's).
import { createHash, verify, X509Certificate } from 'node:crypto';
import { isUint8Array } from 'node:util/types';
import { decode, encode, Tag } from 'cbor2';

export const COSE_FILES = ['META-INF/cose.manifest', 'META-INF/cose.sig'];
export const PKCS7_FILES = ['META-INF/manifest.mf', 'META-INF/mozilla.sf', 'META-INF/mozilla.rsa'];

export interface DecodedCoseSignature {
  /** The serialized protected header of the message, and the certificates in its kid. */
  bodyProtected: Uint8Array;
  intermediates: Buffer[];
  signatures: { protected: Uint8Array; algorithm: number; certificate: Buffer; signature: Buffer }[];
}

/** Decodes cose.sig, refusing anything but the shape Firefox accepts for add-ons. */
export function decodeCoseSignature(coseSig: Buffer): DecodedCoseSignature {
  // A plain Uint8Array in: cbor2 returns byte strings as views of its input, and a Buffer view would
  // be encoded again through Buffer's toJSON().
  const message = decode(new Uint8Array(coseSig), { preferMap: true, rejectDuplicateKeys: true });
  if (!(message instanceof Tag) || Number(message.tag) !== 98) throw new Error('cose.sig: not a tagged COSE_Sign');
  const parts = message.contents;
  if (!Array.isArray(parts) || parts.length !== 4) throw new Error('cose.sig: COSE_Sign is not a 4-element array');
  const [bodyProtected, unprotected, payload, signatures] = parts as unknown[];
  if (!isUint8Array(bodyProtected)) throw new Error('cose.sig: protected header is not a byte string');
  expectEmptyMap(unprotected, 'unprotected header');
  if (payload !== null) throw new Error('cose.sig: the payload must be detached (nil)');
  const body = headerMap(bodyProtected, [4]);
  const kid = body.get(4);
  if (!Array.isArray(kid) || !kid.every((item) => isUint8Array(item))) {
    throw new Error('cose.sig: protected kid is not an array of certificates');
  }
  if (!Array.isArray(signatures) || signatures.length === 0) throw new Error('cose.sig: no signatures');
  return {
    bodyProtected,
    intermediates: kid.map((certificate: Uint8Array) => Buffer.from(certificate)),
    signatures: signatures.map((item: unknown) => {
      if (!Array.isArray(item) || item.length !== 3)
        throw new Error('cose.sig: COSE_Signature is not a 3-element array');
      const [signatureProtected, signatureUnprotected, signature] = item as unknown[];
      if (!isUint8Array(signatureProtected) || !isUint8Array(signature)) {
        throw new Error('cose.sig: malformed COSE_Signature');
      }
      expectEmptyMap(signatureUnprotected, 'signature unprotected header');
      const header = headerMap(signatureProtected, [1, 4]);
      const algorithm = header.get(1);
      const certificate = header.get(4);
      if (typeof algorithm !== 'number' || !isUint8Array(certificate)) {
        throw new Error('cose.sig: signature header needs alg (int) and kid (certificate)');
      }
      return {
        protected: signatureProtected,
        algorithm,
        certificate: Buffer.from(certificate),
        signature: Buffer.from(signature),
      };
    }),
  };
}

/**
 * Verifies cose.sig over the cose.manifest bytes with certificates chaining to `ca`; returns the
 * end-entity certificate. Only ES256 is accepted (what the service signs with).
 */
export function verifyCoseSignature(coseSig: Buffer, coseManifest: Buffer, ca: X509Certificate): X509Certificate {
  const decoded = decodeCoseSignature(coseSig);
  const intermediates = decoded.intermediates.map((der) => new X509Certificate(der));
  let endEntity: X509Certificate | null = null;
  for (const signature of decoded.signatures) {
    if (signature.algorithm !== -7) throw new Error(`cose.sig: unexpected alg ${signature.algorithm}`);
    const certificate = new X509Certificate(signature.certificate);
    const details = certificate.publicKey.asymmetricKeyDetails;
    if (certificate.publicKey.asymmetricKeyType !== 'ec' || details?.namedCurve !== 'prime256v1') {
      throw new Error('cose.sig: ES256 needs a P-256 certificate');
    }
    // RFC 8152 4.4, built here independently of the signer's code.
    const toBeSigned = encode([
      'Signature',
      decoded.bodyProtected,
      signature.protected,
      new Uint8Array(0),
      new Uint8Array(coseManifest),
    ]);
    const ok = verify(
      'sha256',
      toBeSigned,
      { key: certificate.publicKey, dsaEncoding: 'ieee-p1363' },
      signature.signature,
    );
    if (!ok) throw new Error('cose.sig: signature does not verify');
    if (!chainsTo(certificate, intermediates, ca)) throw new Error('cose.sig: certificate does not chain to the CA');
    endEntity ??= certificate;
  }
  if (!endEntity) throw new Error('cose.sig: no signatures');
  return endEntity;
}

/**
 * Firefox's manifest rule: every archive entry but directories and the ignored signature files is
 * listed once, with its SHA-256; nothing listed is missing.
 */
export function checkManifest(manifest: Buffer, files: ReadonlyMap<string, Buffer>, ignored: readonly string[]): void {
  const text = manifest.toString('utf8');
  if (!text.startsWith('Manifest-Version: 1.0\n')) throw new Error('manifest: bad header');
  const sections = text
    .replace(/\n /g, '')
    .split('\n\n')
    .slice(1)
    .filter((section) => section.length > 0);
  const listed = new Set<string>();
  for (const section of sections) {
    const headers = new Map(
      section.split('\n').map((line) => [line.slice(0, line.indexOf(': ')), line.slice(line.indexOf(': ') + 2)]),
    );
    const name = headers.get('Name');
    const digest = headers.get('SHA256-Digest');
    if (!name || !digest) throw new Error('manifest: section without Name or SHA256-Digest');
    if (listed.has(name)) throw new Error(`manifest: ${name} listed twice`);
    const data = files.get(name);
    if (!data) throw new Error(`manifest: ${name} listed but missing`);
    if (createHash('sha256').update(data).digest('base64') !== digest) throw new Error(`manifest: ${name} modified`);
    listed.add(name);
  }
  for (const name of files.keys()) {
    if (name.endsWith('/') || ignored.includes(name)) continue;
    if (!listed.has(name)) throw new Error(`manifest: ${name} not signed`);
  }
}

/** cose.sig, cose.manifest and every file they cover, as Firefox checks them after a valid PKCS#7 signature. */
export function verifyCosePackage(files: ReadonlyMap<string, Buffer>, ca: X509Certificate): X509Certificate {
  const coseSig = files.get('META-INF/cose.sig');
  const coseManifest = files.get('META-INF/cose.manifest');
  if (!coseSig || !coseManifest) throw new Error('COSE signature files missing');
  const endEntity = verifyCoseSignature(coseSig, coseManifest, ca);
  checkManifest(coseManifest, files, [...PKCS7_FILES, ...COSE_FILES]);
  return endEntity;
}

function chainsTo(certificate: X509Certificate, intermediates: X509Certificate[], ca: X509Certificate): boolean {
  let current = certificate;
  for (let depth = 0; depth <= intermediates.length; depth += 1) {
    if (current.checkIssued(ca) && current.verify(ca.publicKey)) return true;
    const issuer = intermediates.find(
      (candidate) => current.checkIssued(candidate) && current.verify(candidate.publicKey),
    );
    if (!issuer || issuer.raw.equals(current.raw)) return false;
    current = issuer;
  }
  return false;
}

function headerMap(serialized: Uint8Array, labels: number[]): Map<unknown, unknown> {
  const header = decode(serialized, { preferMap: true, rejectDuplicateKeys: true });
  if (!(header instanceof Map)) throw new Error('cose.sig: protected header is not a map');
  const keys = [...header.keys()];
  if (keys.length !== labels.length || !labels.every((label) => keys.includes(label))) {
    throw new Error(`cose.sig: protected header must hold exactly ${labels.join(', ')}`);
  }
  return header;
}

function expectEmptyMap(value: unknown, what: string): void {
  if (!(value instanceof Map) || value.size !== 0) throw new Error(`cose.sig: ${what} must be an empty map`);
}
