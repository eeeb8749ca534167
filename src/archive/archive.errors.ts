/**
 * Why an archive was refused (malformed, hostile or over a limit). `message` is the user-facing
 * text: the original service's wording where it had one (the signing API answers
 * `{"error": message}`), otherwise our own.
 */
export const ArchiveErrorReason = {
  INVALID_ARCHIVE: 'INVALID_ARCHIVE',
  INVALID_FILE_NAME: 'INVALID_FILE_NAME',
  DUPLICATE_FILE_NAME: 'DUPLICATE_FILE_NAME',
  SYMLINK: 'SYMLINK',
  SPECIAL_FILE: 'SPECIAL_FILE',
  ENCRYPTED_FILE: 'ENCRYPTED_FILE',
  UNSUPPORTED_COMPRESSION: 'UNSUPPORTED_COMPRESSION',
  TOO_MANY_FILES: 'TOO_MANY_FILES',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  TOTAL_TOO_LARGE: 'TOTAL_TOO_LARGE',
  COMPRESSION_RATIO: 'COMPRESSION_RATIO',
} as const;
export type ArchiveErrorReason = (typeof ArchiveErrorReason)[keyof typeof ArchiveErrorReason];

/**
 * A refusal of what a user sent, for a `reason` of the kinds `R`, with the message answered to them;
 * never a bug or an I/O failure of our own. Each kind of input has its own class (`ArchiveError`,
 * signing's `PackageError`), so a catch names exactly what it expects.
 */
export class Refusal<R extends string> extends Error {
  constructor(
    readonly reason: R,
    message: string,
  ) {
    super(message);
  }
}

/** An archive the service refuses. */
export class ArchiveError extends Refusal<ArchiveErrorReason> {
  override readonly name = 'ArchiveError';
}

const R = ArchiveErrorReason;

export const archiveErrors = {
  invalidArchive: () => new ArchiveError(R.INVALID_ARCHIVE, 'Invalid archive.'),
  invalidFileName: (name: string) => new ArchiveError(R.INVALID_FILE_NAME, `Invalid file name in archive: ${name}`),
  duplicateFileName: (name: string) =>
    new ArchiveError(R.DUPLICATE_FILE_NAME, `Duplicate file name in archive: ${name}`),
  symlink: (name: string) => new ArchiveError(R.SYMLINK, `Symbolic links are not allowed in archive: ${name}`),
  specialFile: (name: string) => new ArchiveError(R.SPECIAL_FILE, `Unsupported file type in archive: ${name}`),
  encryptedFile: (name: string) =>
    new ArchiveError(R.ENCRYPTED_FILE, `Encrypted files are not allowed in archive: ${name}`),
  unsupportedCompression: (name: string) =>
    new ArchiveError(R.UNSUPPORTED_COMPRESSION, `Unsupported compression method in archive: ${name}`),
  tooManyFiles: (limit: number) => new ArchiveError(R.TOO_MANY_FILES, `Archive contains more than ${limit} files.`),
  fileTooLarge: (name: string) => new ArchiveError(R.FILE_TOO_LARGE, `File exceeding size limit in archive: ${name}`),
  totalTooLarge: () => new ArchiveError(R.TOTAL_TOO_LARGE, 'Uncompressed size is too large'),
  compressionRatio: (name: string) =>
    new ArchiveError(R.COMPRESSION_RATIO, `Suspicious compression ratio in archive: ${name}`),
};
