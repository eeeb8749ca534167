import { createHash, createPublicKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

declare module 'node-forge' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace pki {
    /** Exported by node-forge's lib/x509.js, missing from @types/node-forge: `[3] { SEQUENCE OF Extension }`. */
    function certificateExtensionsToAsn1(extensions: unknown[]): asn1.Asn1;
  }
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace asn1 {
    /** node-forge's lib/asn1.js also takes an options object, missing from @types/node-forge. */
    function fromDer(bytes: Bytes | util.ByteBuffer, options: { strict?: boolean; decodeBitStrings?: boolean }): Asn1;
  }
}

const { asn1 } = forge;

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsaEncryption: '1.2.840.113549.1.1.11',
} as const;

/** A subject or issuer attribute, e.g. `{ name: 'commonName', value: 'x' }`. */
export interface NameAttribute {
  name: 'commonName' | 'organizationName' | 'organizationalUnitName';
  value: string;
}

/** What differs between the CA certificate and a signing certificate; the rest is common. */
export interface CertificateSpec {
  subject: NameAttribute[];
  /** The issuer's subject, DER-encoded exactly as in the issuer's certificate (null: self-signed). */
  issuerName: forge.asn1.Asn1 | null;
  publicKey: KeyObject;
  notBefore: Date;
  notAfter: Date;
  /** node-forge extension objects (`{ name: 'keyUsage', digitalSignature: true, ... }`). */
  extensions: object[];
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** Node's generator runs on the libuv thread pool; node-forge's pure-JS one would block for seconds. */
export async function generateRsaKey(bits: number): Promise<KeyObject> {
  const { privateKey } = await generateKeyPairAsync('rsa', { modulusLength: bits });
  return privateKey;
}

/** A P-256 key (COSE ES256), generated on the libuv thread pool. */
export async function generateEcKey(): Promise<KeyObject> {
  const { privateKey } = await generateKeyPairAsync('ec', { namedCurve: 'P-256' });
  return privateKey;
}

/**
 * Builds and signs an X.509 v3 certificate (sha256WithRSAEncryption, so the signing key is RSA);
 * returns its DER. The subject key may be RSA or EC: forge only encodes RSA keys, so the
 * SubjectPublicKeyInfo is Node's own encoding, and the fields around it are laid out here with
 * forge's ASN.1 helpers (forge still encodes the names and the extensions' values).
 */
export function issueCertificate(spec: CertificateSpec, signingKey: KeyObject): Buffer {
  if (signingKey.asymmetricKeyType !== 'rsa') throw new Error('Certificates are signed with an RSA key');
  const spki = subjectPublicKeyInfo(spec.publicKey);
  const cert = forge.pki.createCertificate();
  // forge derives the subjectKeyIdentifier extension from this; its own version reads an RSA key.
  cert.generateSubjectKeyIdentifier = () => forge.util.createBuffer(keyIdentifier(spki).toString('binary'));
  cert.setSubject(spec.subject.map(utf8Attribute));
  cert.setExtensions(spec.extensions);
  const subject = forge.pki.distinguishedNameToAsn1(cert.subject);
  const signatureAlgorithm = (): forge.asn1.Asn1 =>
    sequence([oid(OID.sha256WithRsaEncryption), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')]);
  const tbs = sequence([
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [integer(2)]), // v3
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, forge.util.hexToBytes(randomSerialHex())),
    signatureAlgorithm(),
    // Chain building (mozilla::pkix) matches names byte for byte: the issuer's encoding verbatim.
    spec.issuerName ?? subject,
    sequence([asn1Time(spec.notBefore), asn1Time(spec.notAfter)]),
    subject,
    spki,
    forge.pki.certificateExtensionsToAsn1(cert.extensions),
  ]);
  // Node's native RSA takes about 1 ms; forge's JavaScript one 40-200 ms.
  const signature = sign('sha256', derBuffer(tbs), signingKey);
  return derBuffer(
    sequence([
      tbs,
      signatureAlgorithm(),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, '\0' + signature.toString('binary')),
    ]),
  );
}

/** The key's SubjectPublicKeyInfo as Node encodes it (rsaEncryption, or id-ecPublicKey with its named curve). */
function subjectPublicKeyInfo(key: KeyObject): forge.asn1.Asn1 {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  const der = publicKey.export({ type: 'spki', format: 'der' });
  // Kept as raw bytes: forge would otherwise parse an RSA key's BIT STRING as nested ASN.1.
  return asn1.fromDer(der.toString('binary'), { strict: true, decodeBitStrings: false });
}

/** RFC 5280 4.2.1.2 (1): SHA-1 of the subjectPublicKey BIT STRING's bytes (after its unused-bits octet). */
function keyIdentifier(spki: forge.asn1.Asn1): Buffer {
  const bits = children(spki)[1];
  if (!bits || bits.type !== asn1.Type.BITSTRING || typeof bits.value !== 'string') {
    throw new Error('Malformed SubjectPublicKeyInfo');
  }
  return createHash('sha1')
    .update(Buffer.from(bits.value.slice(1), 'binary'))
    .digest();
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
export function asn1Time(date: Date): forge.asn1.Asn1 {
  return date.getUTCFullYear() < 2050
    ? asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(date))
    : asn1.create(asn1.Class.UNIVERSAL, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(date));
}

function sequence(elements: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, elements);
}

function oid(value: string): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(value).getBytes());
}

function integer(value: number): forge.asn1.Asn1 {
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(value).getBytes());
}

/** Positive, non-zero-leading 128-bit serial (RFC 5280 allows up to 20 octets). */
export function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

// @types/node-forge types `valueTagClass` as an asn1.Class; node-forge reads it as an asn1.Type.
const UTF8_STRING: number = asn1.Type.UTF8;

function utf8Attribute(attribute: NameAttribute): forge.pki.CertificateField {
  // forge defaults to PrintableString, which cannot hold '@' (common in add-on IDs) or non-ASCII.
  return { name: attribute.name, value: attribute.value, valueTagClass: UTF8_STRING };
}

export function derBuffer(node: forge.asn1.Asn1): Buffer {
  return Buffer.from(asn1.toDer(node).getBytes(), 'binary');
}

export function certificateFromDer(der: Buffer): forge.pki.Certificate {
  return forge.pki.certificateFromAsn1(asn1.fromDer(der.toString('binary')));
}

/** SHA-256 of the DER certificate, lowercase hex (what `openssl x509 -fingerprint -sha256` shows). */
export function certificateFingerprint(der: Buffer): string {
  return createHash('sha256').update(der).digest('hex');
}

interface TbsFields {
  serialNumber: forge.asn1.Asn1;
  issuer: forge.asn1.Asn1;
  subject: forge.asn1.Asn1;
}

/** Live view of a TBSCertificate's fields; assigning `issuer` replaces it in the structure. */
export function tbsFields(tbs: forge.asn1.Asn1): TbsFields {
  const fields = children(tbs);
  // The version field is an optional [0] EXPLICIT tag before the serial number.
  const offset = fields[0]?.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const at = (index: number): forge.asn1.Asn1 => {
    const field = fields[offset + index];
    if (!field) throw new Error('Malformed TBSCertificate');
    return field;
  };
  return {
    serialNumber: at(0),
    get issuer() {
      return at(2);
    },
    set issuer(name: forge.asn1.Asn1) {
      fields[offset + 2] = name;
    },
    subject: at(4),
  };
}

/** The TBSCertificate of a DER certificate, as parsed ASN.1 (encodings preserved). */
export function tbsOf(certDer: Buffer): forge.asn1.Asn1 {
  const tbs = children(asn1.fromDer(certDer.toString('binary')))[0];
  if (!tbs) throw new Error('Malformed certificate');
  return tbs;
}

export function children(node: forge.asn1.Asn1): forge.asn1.Asn1[] {
  if (typeof node.value === 'string') throw new Error('Expected a constructed ASN.1 value');
  return node.value;
}

/** The subjectKeyIdentifier extension's value, so authorityKeyIdentifier matches whatever the CA uses. */
export function subjectKeyIdentifier(cert: forge.pki.Certificate): string {
  const extension: unknown = cert.getExtension('subjectKeyIdentifier');
  if (isRecord(extension) && typeof extension.subjectKeyIdentifier === 'string') {
    return forge.util.hexToBytes(extension.subjectKeyIdentifier);
  }
  return cert.generateSubjectKeyIdentifier().getBytes();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
