import { sign, type KeyObject } from 'node:crypto';
import { encode, Tag } from 'cbor2';

/**
 * The COSE signature Firefox checks next to the PKCS#7 one (RFC 8152 COSE_Sign, as Mozilla's signer
 * writes it and Firefox's cose-rust reads it):
 *
 *   98([
 *     h'{4: [DER intermediate, ...]}',    protected: kid = the certificates between signer and root
 *     {},                                 unprotected: empty
 *     nil,                                payload: detached, the bytes of META-INF/cose.manifest
 *     [[h'{1: -7, 4: DER end-entity}', {}, r || s]]   a signature per algorithm: ES256 only
 *   ])
 *
 * Each signature covers the Sig_structure ["Signature", body protected, signature protected,
 * h'' (no external AAD), manifest].
 */

const COSE_SIGN_TAG = 98;
/** ECDSA with SHA-256 on P-256 (RFC 8152 8.1). */
const ES256 = -7;
const HEADER_ALG = 1;
const HEADER_KID = 4;

export interface CoseSignatureInput {
  /** The signed bytes (META-INF/cose.manifest); they are not embedded in the result. */
  manifest: Buffer;
  /** DER end-entity certificate whose subject key is P-256. */
  signerCertificate: Buffer;
  signerKey: KeyObject;
  /** DER certificates between the end-entity and the root (here the service CA, as Mozilla ships its intermediate). */
  intermediates: readonly Buffer[];
}

/** The COSE_Sign message for META-INF/cose.sig. */
export function signCose(input: CoseSignatureInput): Buffer {
  const details = input.signerKey.asymmetricKeyDetails;
  if (input.signerKey.asymmetricKeyType !== 'ec' || details?.namedCurve !== 'prime256v1') {
    throw new Error('COSE signatures for add-ons use ES256: the signing key must be a P-256 key');
  }
  const bodyProtected = bodyProtectedHeader(input.intermediates);
  const signatureProtected = signatureProtectedHeader(input.signerCertificate);
  // COSE carries ECDSA signatures as the fixed-size r and s, not DER (RFC 8152 8.1).
  const signature = sign('sha256', sigStructure(bodyProtected, signatureProtected, input.manifest), {
    key: input.signerKey,
    dsaEncoding: 'ieee-p1363',
  });
  return cbor(
    new Tag(COSE_SIGN_TAG, [
      bytes(bodyProtected),
      new Map(),
      null,
      [[bytes(signatureProtected), new Map(), bytes(signature)]],
    ]),
  );
}

/** The serialized protected header of the message: kid = an array of DER certificates. */
function bodyProtectedHeader(intermediates: readonly Buffer[]): Buffer {
  return cbor(new Map([[HEADER_KID, intermediates.map((certificate) => bytes(certificate))]]));
}

/** The serialized protected header of one signature: alg, then kid = the signer's DER certificate. */
function signatureProtectedHeader(certificate: Buffer): Buffer {
  return cbor(
    new Map<number, number | Uint8Array>([
      [HEADER_ALG, ES256],
      [HEADER_KID, bytes(certificate)],
    ]),
  );
}

/** RFC 8152 4.4: what a COSE_Signature signs (context "Signature", empty external AAD). */
function sigStructure(bodyProtected: Buffer, signatureProtected: Buffer, payload: Buffer): Buffer {
  return cbor(['Signature', bytes(bodyProtected), bytes(signatureProtected), new Uint8Array(0), bytes(payload)]);
}

function cbor(value: unknown): Buffer {
  const encoded = encode(value);
  return Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}

/** A byte string: cbor2 would encode a Node Buffer through its toJSON(), as a map `{type, data}`. */
function bytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
