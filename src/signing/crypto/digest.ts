import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256. */
export function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The `files[].hash` value (`sha256:<hex>`). Compute it over the signed package, the exact bytes
 * `signPackage` returns and that are stored and served, never over the upload: Firefox checks the
 * downloaded file against this hash before installing it.
 */
export function signedFileHash(signedPackage: Buffer): string {
  return `sha256:${sha256Hex(signedPackage)}`;
}
