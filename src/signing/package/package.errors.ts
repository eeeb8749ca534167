import { ArchiveError, Refusal } from '../../archive/archive.errors.js';

/**
 * Why an uploaded package was refused for what it holds (its manifest, guid, version, size as a
 * theme); refusals of the archive itself are `ArchiveError`s (src/archive). `message` is the
 * user-facing text: the original service's wording where it had one (the signing API answers
 * `{"error": message}`), otherwise our own.
 */
export const PackageErrorReason = {
  NO_MANIFEST: 'NO_MANIFEST',
  LEGACY_PACKAGE: 'LEGACY_PACKAGE',
  INVALID_MANIFEST: 'INVALID_MANIFEST',
  INVALID_GUID: 'INVALID_GUID',
  GUID_TOO_LONG: 'GUID_TOO_LONG',
  GUID_REQUIRED: 'GUID_REQUIRED',
  VERSION_MISSING: 'VERSION_MISSING',
  VERSION_TOO_LONG: 'VERSION_TOO_LONG',
  VERSION_CHARACTERS: 'VERSION_CHARACTERS',
  STRICT_MIN_VERSION_TOO_LOW: 'STRICT_MIN_VERSION_TOO_LOW',
  THEME_TOO_LARGE: 'THEME_TOO_LARGE',
} as const;
export type PackageErrorReason = (typeof PackageErrorReason)[keyof typeof PackageErrorReason];

/** A package the service refuses for its contents. */
export class PackageError extends Refusal<PackageErrorReason> {
  override readonly name = 'PackageError';
}

/**
 * Whether an error is a refusal of the package: of its archive (`ArchiveError`) or of its contents
 * (`PackageError`). Both are the uploader's fault and carry the message the signing API answers.
 */
export function isPackageRefusal(error: unknown): error is PackageError | ArchiveError {
  return error instanceof PackageError || error instanceof ArchiveError;
}

const R = PackageErrorReason;

/** Sizes the way the original formats them: 7 MiB is "7.0 MB". */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const packageErrors = {
  noManifest: () => new PackageError(R.NO_MANIFEST, 'No install.rdf or manifest.json found'),
  legacyPackage: (browserName: string) =>
    new PackageError(R.LEGACY_PACKAGE, `Legacy extensions are no longer supported in ${browserName}.`),
  invalidManifest: () => new PackageError(R.INVALID_MANIFEST, 'Could not parse the manifest file.'),
  invalidGuid: () => new PackageError(R.INVALID_GUID, 'Invalid Add-on ID in URL or package'),
  guidTooLong: () =>
    new PackageError(
      R.GUID_TOO_LONG,
      "Please specify your Add-on GUID in the manifest if it's longer than 64 characters.",
    ),
  guidRequired: (browserName: string) =>
    new PackageError(R.GUID_REQUIRED, `GUID is required for ${browserName} 47 and below.`),
  versionMissing: () => new PackageError(R.VERSION_MISSING, 'No version number found in the manifest file.'),
  versionTooLong: () => new PackageError(R.VERSION_TOO_LONG, 'Version numbers should have fewer than 32 characters.'),
  versionCharacters: () =>
    new PackageError(
      R.VERSION_CHARACTERS,
      'Version numbers should only contain letters, numbers, and these punctuation characters: +*.-_.',
    ),
  strictMinVersionTooLow: () =>
    new PackageError(R.STRICT_MIN_VERSION_TOO_LOW, 'Lowest supported "strict_min_version" is 42.0.'),
  themeTooLarge: (limit: number) =>
    new PackageError(R.THEME_TOO_LARGE, `Maximum size for WebExtension themes is ${formatMegabytes(limit)}.`),
};
