import { createHash, type KeyObject } from 'node:crypto';
import type forge from 'node-forge';
import { type CertificateAuthority } from './authority.js';
import { KeyPool } from './key-pool.js';
import { generateEcKey, issueCertificate, subjectKeyIdentifier, tbsFields, tbsOf } from './x509.js';

/**
 * Keys kept ready for signing certificates. Each signature gets a fresh key, thrown away afterwards
 * like Mozilla's autograph does. 8 keys absorb a burst of 8 signings; one background generation at a
 * time (100-200 ms per key) refills the pool at 5-10 keys a second without taking every core from
 * the signing itself. Past the burst, a signing generates its own key.
 */
export const DEFAULT_KEY_POOL_SIZE = 8;
const SIGNING_KEY_BITS = 2048;
const REFILL_CONCURRENCY = 1;
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** X.520 caps commonName at 64 characters; beyond that AMO signs, and Firefox expects, the ID's SHA-256 in hex. */
const MAX_COMMON_NAME_LENGTH = 64;

export interface SignerOptions {
  poolSize?: number;
}

export interface SigningIdentity {
  /** DER end-entity certificate: CN=<add-on ID>, OU=Production, O=Addons, issued by the CA. */
  certificate: Buffer;
  privateKey: KeyObject;
}

/** Issues one end-entity code-signing certificate per signature, under the given CA. */
export class AddonSigner {
  private readonly issuerName: forge.asn1.Asn1;
  private readonly issuerKeyIdentifier: string;

  private constructor(
    readonly authority: CertificateAuthority,
    private readonly keys: KeyPool,
  ) {
    this.issuerName = tbsFields(tbsOf(authority.certificateDer)).subject;
    this.issuerKeyIdentifier = subjectKeyIdentifier(authority.certificate);
  }

  /** Starts pre-generating keys right away. */
  static start(authority: CertificateAuthority, options: SignerOptions = {}): AddonSigner {
    const keys = new KeyPool({
      size: options.poolSize ?? DEFAULT_KEY_POOL_SIZE,
      bits: SIGNING_KEY_BITS,
      concurrency: REFILL_CONCURRENCY,
    });
    return new AddonSigner(authority, keys.start());
  }

  /** Certificates shipped with each signature after the end-entity one, so verifiers can chain it. */
  get chain(): readonly Buffer[] {
    return [this.authority.certificateDer];
  }

  /** An RSA identity from the pool, for the PKCS#7 signature. */
  async issue(guid: string): Promise<SigningIdentity> {
    return this.certify(guid, await this.keys.take());
  }

  /**
   * A P-256 identity for the COSE signature (ES256, the algorithm Firefox checks), under the same CA
   * and with the same subject. A fresh key each time: generating one takes well under a millisecond.
   */
  async issueEc(guid: string): Promise<SigningIdentity> {
    return this.certify(guid, await generateEcKey());
  }

  private certify(guid: string, privateKey: KeyObject): SigningIdentity {
    const commonName = signingCommonName(guid);
    const certificate = issueCertificate(
      {
        subject: [
          { name: 'organizationName', value: 'Addons' },
          { name: 'organizationalUnitName', value: 'Production' },
          { name: 'commonName', value: commonName },
        ],
        issuerName: this.issuerName,
        publicKey: privateKey,
        notBefore: new Date(Date.now() - CLOCK_SKEW_MS),
        // Firefox ignores end-entity validity for add-ons; openssl and other tools do not.
        notAfter: this.authority.certificate.validity.notAfter,
        extensions: [
          { name: 'keyUsage', digitalSignature: true, critical: true },
          { name: 'extKeyUsage', codeSigning: true },
          { name: 'authorityKeyIdentifier', keyIdentifier: this.issuerKeyIdentifier },
          { name: 'subjectKeyIdentifier' },
        ],
      },
      this.authority.privateKey,
    );
    return { certificate, privateKey };
  }

  /** Resolves when the key pool is full (useful at start-up and in tests). */
  ready(): Promise<void> {
    return this.keys.ready();
  }

  close(): Promise<void> {
    return this.keys.close();
  }
}

/** The end-entity CN Firefox compares with the add-on ID. */
export function signingCommonName(guid: string): string {
  if (guid.length === 0) throw new Error('An add-on ID is required to sign');
  if (guid.length <= MAX_COMMON_NAME_LENGTH) return guid;
  return createHash('sha256').update(guid, 'utf8').digest('hex');
}
