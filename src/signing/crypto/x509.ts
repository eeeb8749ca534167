import { createHash, createPublicKey, generateKeyPair, randomBytes, sign, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import forge from 'node-forge';

declare module 'node-forge' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace pki {
    /** Exported by node-forge's lib/x509.js, missing from @types/node-forge. */
    function getTBSCertificate(cert: Certificate): asn1.Asn1;
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

/** Builds and signs an X.509 v3 certificate (sha256WithRSAEncryption); returns its DER. */
export function issueCertificate(spec: CertificateSpec, signingKey: KeyObject): Buffer {
  const cert = forge.pki.createCertificate();
  cert.serialNumber = randomSerialHex();
  cert.validity.notBefore = spec.notBefore;
  cert.validity.notAfter = spec.notAfter;
  cert.publicKey = forge.pki.publicKeyFromPem(publicKeyPem(spec.publicKey));
  const subject = spec.subject.map(utf8Attribute);
  cert.setSubject(subject);
  cert.setIssuer(subject); // replaced in the encoding by spec.issuerName unless self-signed
  cert.setExtensions(spec.extensions);
  signCertificate(cert, signingKey, spec.issuerName);
  return derBuffer(forge.pki.certificateToAsn1(cert));
}

/**
 * forge's `cert.sign()` does the RSA operation in JavaScript (about 40 ms for a 2048-bit key and
 * 200 ms for 4096 bits); Node's native `sign` takes about 1 ms. forge still lays out the TBSCertificate.
 */
function signCertificate(cert: forge.pki.Certificate, key: KeyObject, issuerName: forge.asn1.Asn1 | null): void {
  cert.signatureOid = cert.siginfo.algorithmOid = OID.sha256WithRsaEncryption;
  const tbs = forge.pki.getTBSCertificate(cert);
  // Chain building (mozilla::pkix) matches names byte for byte: copy the issuer's encoding verbatim.
  if (issuerName) tbsFields(tbs).issuer = issuerName;
  cert.tbsCertificate = tbs;
  cert.signature = sign('sha256', derBuffer(tbs), key).toString('binary');
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

function publicKeyPem(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return publicKey.export({ type: 'spki', format: 'pem' }).toString();
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
