export { AUTHORITY_VALIDITY_YEARS, authorityPaths, loadOrCreateAuthority } from './authority.js';
export type { AuthorityOptions, CertificateAuthority } from './authority.js';
export { sha256Hex, signedFileHash } from './digest.js';
export { AddonSigner, DEFAULT_KEY_POOL_SIZE, signingCommonName } from './signer.js';
export type { SignerOptions, SigningIdentity } from './signer.js';
export {
  COSE_MANIFEST_PATH,
  COSE_SIGNATURE_PATH,
  MANIFEST_PATH,
  SIGNATURE_FILE_PATH,
  SIGNATURE_PATH,
  signPackage,
} from './sign-package.js';
export type { PackageEntry, SignPackageOptions } from './sign-package.js';
