import { createHash, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';
import { OID, asn1Time, children, derBuffer, tbsFields, tbsOf } from './x509.js';

const { asn1 } = forge;
const { Class, Type } = asn1;

export interface DetachedSignatureInput {
  /** The signed bytes (mozilla.sf); they are not embedded in the result. */
  content: Buffer;
  signerCertificate: Buffer;
  signerKey: KeyObject;
  /** DER certificates shipped after the signer's so verifiers can build the chain. */
  chain: readonly Buffer[];
  signingTime?: Date;
}

/**
 * A DER PKCS#7 SignedData (RFC 2315) with detached content, SHA-256 and RSA PKCS#1 v1.5: what Firefox
 * expects in META-INF/mozilla.rsa. The signer is named by issuer and serial number (Firefox reads no
 * other identifier), and the signed attributes carry the content type and the content's digest.
 */
export function signDetached(input: DetachedSignatureInput): Buffer {
  const attributes = signedAttributes(input.content, input.signingTime ?? new Date());
  const signature = sign('sha256', derBuffer(set(attributes)), input.signerKey);
  const certificates = [input.signerCertificate, ...input.chain].map(parseDer);
  const signedData = sequence([
    integer(1),
    set([algorithm(OID.sha256)]),
    sequence([oid(OID.data)]),
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, certificates),
    set([signerInfo(input.signerCertificate, attributes, signature)]),
  ]);
  return derBuffer(sequence([oid(OID.signedData), explicit(0, signedData)]));
}

function signerInfo(certificate: Buffer, attributes: forge.asn1.Asn1[], signature: Buffer): forge.asn1.Asn1 {
  const tbs = tbsFields(tbsOf(certificate));
  return sequence([
    integer(1),
    sequence([tbs.issuer, tbs.serialNumber]),
    algorithm(OID.sha256),
    // The signature covers these attributes encoded as a SET; here they sit under [0] IMPLICIT.
    asn1.create(Class.CONTEXT_SPECIFIC, 0, true, children(set(attributes))),
    algorithm(OID.rsaEncryption),
    asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, signature.toString('binary')),
  ]);
}

function signedAttributes(content: Buffer, signingTime: Date): forge.asn1.Asn1[] {
  const digest = createHash('sha256').update(content).digest();
  return [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.signingTime, asn1Time(signingTime)),
    attribute(OID.messageDigest, asn1.create(Class.UNIVERSAL, Type.OCTETSTRING, false, digest.toString('binary'))),
  ];
}

function attribute(type: string, value: forge.asn1.Asn1): forge.asn1.Asn1 {
  return sequence([oid(type), set([value])]);
}

/** DER orders a SET OF by the elements' encodings (X.690 11.6); forge keeps insertion order. */
function set(elements: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  const sorted = elements
    .map((element) => ({ element, der: derBuffer(element) }))
    .sort((a, b) => Buffer.compare(a.der, b.der))
    .map(({ element }) => element);
  return asn1.create(Class.UNIVERSAL, Type.SET, true, sorted);
}

function sequence(elements: forge.asn1.Asn1[]): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.SEQUENCE, true, elements);
}

function explicit(tag: number, element: forge.asn1.Asn1): forge.asn1.Asn1 {
  return asn1.create(Class.CONTEXT_SPECIFIC, tag, true, [element]);
}

function oid(value: string): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.OID, false, asn1.oidToDer(value).getBytes());
}

function integer(value: number): forge.asn1.Asn1 {
  return asn1.create(Class.UNIVERSAL, Type.INTEGER, false, asn1.integerToDer(value).getBytes());
}

function algorithm(identifier: string): forge.asn1.Asn1 {
  return sequence([oid(identifier), asn1.create(Class.UNIVERSAL, Type.NULL, false, '')]);
}

function parseDer(der: Buffer): forge.asn1.Asn1 {
  return asn1.fromDer(der.toString('binary'));
}
