import { buffer } from 'node:stream/consumers';
import { ZipFile } from 'yazl';
import { manifestFile, signatureFile, type ManifestEntry } from './jar-manifest.js';
import { signCose } from './cose.js';
import { signDetached } from './pkcs7.js';
import { type AddonSigner } from './signer.js';

export interface PackageEntry {
  name: string;
  data: Buffer;
}

export interface SignPackageOptions {
  /** The add-on ID: the signing certificate's CN (its SHA-256 when longer than 64 characters). */
  guid: string;
  signer: AddonSigner;
}

export const MANIFEST_PATH = 'META-INF/manifest.mf';
export const SIGNATURE_FILE_PATH = 'META-INF/mozilla.sf';
export const SIGNATURE_PATH = 'META-INF/mozilla.rsa';
export const COSE_MANIFEST_PATH = 'META-INF/cose.manifest';
export const COSE_SIGNATURE_PATH = 'META-INF/cose.sig';

/** Entry times are fixed so that only the signature differs between two signings of the same files. */
const ENTRY_MTIME = new Date(Date.UTC(2020, 0, 1));

/**
 * Signs an add-on as Firefox verifies it and returns the zip bytes: a COSE signature (ES256) over
 * cose.manifest, which lists the add-on's files, then a PKCS#7 signature (SHA-256) over the JAR
 * signature file of manifest.mf, which lists the same files and the two COSE files, as Mozilla's
 * signer does. Firefox verifies the PKCS#7 signature first, ignores its three files when checking
 * the COSE one, and requires every other entry to be listed in each manifest. Existing signature
 * files and directory entries are dropped. Archive order: mozilla.rsa first (as AMO's
 * signing-clients did), then the files in input order, cose.manifest, cose.sig, manifest.mf and
 * mozilla.sf.
 */
export async function signPackage(entries: readonly PackageEntry[], options: SignPackageOptions): Promise<Buffer> {
  const files = packageFiles(entries);
  const coseManifest = manifestFile(files);
  const [coseIdentity, identity] = await Promise.all([
    options.signer.issueEc(options.guid),
    options.signer.issue(options.guid),
  ]);
  const coseFiles = [
    { name: COSE_MANIFEST_PATH, data: coseManifest },
    {
      name: COSE_SIGNATURE_PATH,
      data: signCose({
        manifest: coseManifest,
        signerCertificate: coseIdentity.certificate,
        signerKey: coseIdentity.privateKey,
        intermediates: options.signer.chain,
      }),
    },
  ];
  const manifest = manifestFile([...files, ...coseFiles]);
  const sf = signatureFile(manifest);
  const signature = signDetached({
    content: sf,
    signerCertificate: identity.certificate,
    signerKey: identity.privateKey,
    chain: options.signer.chain,
  });
  return zip([
    { name: SIGNATURE_PATH, data: signature },
    ...files,
    ...coseFiles,
    { name: MANIFEST_PATH, data: manifest },
    { name: SIGNATURE_FILE_PATH, data: sf },
  ]);
}

/** The entries to sign, names normalised the way yazl stores them; throws on names a manifest cannot hold. */
export function packageFiles(entries: readonly PackageEntry[]): ManifestEntry[] {
  const seen = new Set<string>();
  const files: ManifestEntry[] = [];
  for (const entry of entries) {
    const name = entry.name.replace(/\\/g, '/');
    if (name.endsWith('/') || isSignatureFile(name)) continue;
    assertSignableName(name);
    if (seen.has(name)) throw new Error(`Duplicate entry in package: ${name}`);
    seen.add(name);
    files.push({ name, data: entry.data });
  }
  return files;
}

/**
 * Firefox accepts exactly one META-INF/*.rsa and one *.sf and verifies any cose.* files it finds,
 * so every JAR or COSE signature file goes, not only Mozilla's names.
 */
export function isSignatureFile(name: string): boolean {
  const lower = name.toLowerCase();
  if (!lower.startsWith('meta-inf/')) return false;
  const base = lower.slice(lower.lastIndexOf('/') + 1);
  return (
    lower === 'meta-inf/manifest.mf' ||
    lower === 'meta-inf/cose.manifest' ||
    lower === 'meta-inf/cose.sig' ||
    base.startsWith('sig-') ||
    ['.sf', '.rsa', '.dsa', '.ec'].some((extension) => base.endsWith(extension))
  );
}

function assertSignableName(name: string): void {
  // A line break would end the Name header; a leading space would be read as part of the separator.
  if (name.length === 0 || /[\r\n\0]/.test(name) || name.startsWith(' ')) {
    throw new Error(`Cannot sign a package entry named ${JSON.stringify(name)}`);
  }
}

async function zip(entries: readonly PackageEntry[]): Promise<Buffer> {
  const archive = new ZipFile();
  for (const entry of entries) {
    archive.addBuffer(entry.data, entry.name, { compress: true, mtime: ENTRY_MTIME });
  }
  archive.end();
  return buffer(archive.outputStream);
}
