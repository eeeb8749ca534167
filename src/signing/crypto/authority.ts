import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type forge from 'node-forge';
import { type SecretBox } from '../../core/secrets.js';
import { certificateFingerprint, certificateFromDer, generateRsaKey, issueCertificate } from './x509.js';

export const AUTHORITY_VALIDITY_YEARS = 10;
const DEFAULT_KEY_BITS = 4096;
/** Tolerates signers and verifiers whose clocks run a little behind. */
const CLOCK_SKEW_MS = 60 * 60 * 1000;
const CERT_FILE = 'ca.pem';
const KEY_FILE = 'ca-key.sealed';

export interface AuthorityOptions {
  dataDir: string;
  /** Subject CN of a generated CA, e.g. "Example Add-ons Root CA". */
  commonName: string;
  /** Seals a generated private key at rest (e.g. `keyring.box('signing-ca')`); unused with certPem/keyPem. */
  box?: SecretBox;
  /** A configured RSA CA (PEM certificate and PKCS#1 or PKCS#8 key): used as given, nothing is generated or written. */
  certPem?: string;
  keyPem?: string;
  /** RSA modulus of a generated CA key. */
  keyBits?: number;
}

export interface CertificateAuthority {
  certificate: forge.pki.Certificate;
  certificateDer: Buffer;
  certificatePem: string;
  privateKey: KeyObject;
  /** SHA-256 of the DER certificate, lowercase hex. */
  fingerprint: string;
  /** configured: from options; generated: created by this call; stored: read from the data directory. */
  source: 'configured' | 'generated' | 'stored';
}

/** Where a generated CA lives: one directory, published whole by a rename. */
export function authorityPaths(dataDir: string): { directory: string; certificate: string; sealedKey: string } {
  const directory = join(dataDir, 'signing', 'ca');
  return { directory, certificate: join(directory, CERT_FILE), sealedKey: join(directory, KEY_FILE) };
}

/**
 * The configured CA, else the one stored under `<dataDir>/signing/ca/`, else a new one. Concurrent
 * first starts (processes or calls) each generate a candidate, but only the first rename of a
 * complete directory succeeds, and every caller then loads that one.
 */
export async function loadOrCreateAuthority(options: AuthorityOptions): Promise<CertificateAuthority> {
  if (options.certPem !== undefined || options.keyPem !== undefined) return configuredAuthority(options);
  const box = options.box;
  if (!box) throw new Error('loadOrCreateAuthority needs a SecretBox to seal or open the CA private key');
  const paths = authorityPaths(options.dataDir);
  const stored = await readStoredAuthority(paths, box);
  if (stored) return stored;
  const won = await publish(paths.directory, await createAuthorityFiles(options, box));
  const published = await readStoredAuthority(paths, box);
  if (!published) throw new Error(`Signing CA missing from ${paths.directory} after creation`);
  return { ...published, source: won ? 'generated' : 'stored' };
}

function configuredAuthority(options: AuthorityOptions): CertificateAuthority {
  if (!options.certPem || !options.keyPem) {
    throw new Error('A configured signing CA needs both its certificate and its private key');
  }
  return authorityFrom(options.certPem, createPrivateKey(options.keyPem), 'configured');
}

function authorityFrom(
  certPem: string,
  privateKey: KeyObject,
  source: CertificateAuthority['source'],
): CertificateAuthority {
  const x509 = new X509Certificate(certPem);
  if (!x509.ca) throw new Error('The signing CA certificate lacks basicConstraints CA:TRUE');
  if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('The signing CA key must be an RSA key');
  if (!x509.checkPrivateKey(privateKey)) throw new Error('The signing CA key does not match its certificate');
  const der = x509.raw;
  return {
    certificate: certificateFromDer(der),
    certificateDer: der,
    certificatePem: x509.toString(),
    privateKey,
    fingerprint: certificateFingerprint(der),
    source,
  };
}

async function readStoredAuthority(
  paths: ReturnType<typeof authorityPaths>,
  box: SecretBox,
): Promise<CertificateAuthority | null> {
  const certPem = await readIfExists(paths.certificate);
  if (certPem === null) return null;
  const fingerprint = certificateFingerprint(new X509Certificate(certPem).raw);
  const keyPem = box.open((await readFile(paths.sealedKey, 'utf8')).trim(), sealContext(fingerprint));
  if (keyPem === null) {
    throw new Error(`Cannot open ${paths.sealedKey}: sealed with another secret key, or not for ${paths.certificate}`);
  }
  return authorityFrom(certPem, createPrivateKey(keyPem), 'stored');
}

/** Binds the sealed key to its certificate, so neither file can be swapped alone. */
function sealContext(fingerprint: string): string {
  return `signing-ca-key:${fingerprint}`;
}

interface AuthorityFiles {
  certPem: string;
  sealedKey: string;
}

async function createAuthorityFiles(options: AuthorityOptions, box: SecretBox): Promise<AuthorityFiles> {
  const key = await generateRsaKey(options.keyBits ?? DEFAULT_KEY_BITS);
  const notBefore = new Date(Date.now() - CLOCK_SKEW_MS);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + AUTHORITY_VALIDITY_YEARS);
  const der = issueCertificate(
    {
      subject: [{ name: 'commonName', value: options.commonName }],
      issuerName: null,
      publicKey: key,
      notBefore,
      notAfter,
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        { name: 'subjectKeyIdentifier' },
      ],
    },
    key,
  );
  const keyPem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
  return {
    certPem: new X509Certificate(der).toString(),
    sealedKey: box.seal(keyPem, sealContext(certificateFingerprint(der))) + '\n',
  };
}

/** Writes both files into a private staging directory, then renames it into place. False if another won. */
async function publish(directory: string, files: AuthorityFiles): Promise<boolean> {
  await mkdir(dirname(directory), { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(dirname(directory), '.ca-'));
  try {
    await writeFile(join(staging, CERT_FILE), files.certPem, { mode: 0o644, flush: true });
    await writeFile(join(staging, KEY_FILE), files.sealedKey, { mode: 0o600, flush: true });
    // rename(2) replaces an empty directory but fails on a non-empty one: the first complete CA stays.
    await rename(staging, directory);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOTEMPTY' || errorCode(error) === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

/** Duck-typed: system errors may come from another realm (e.g. under Jest), failing `instanceof Error`. */
function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}
