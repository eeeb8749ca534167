import { AddonType } from '../../catalogue/catalogue.enums.js';
import { compareAppVersions, simpleAppVersion } from '../../core/app-versions.js';
import { isValidGuid } from './guid.js';
import {
  type AppCompatibility,
  type LocaleMessages,
  type Manifest,
  appCompatibility,
  detectAddonType,
  dataCollectionPermissions,
  integerOrNull,
  isExperiment,
  localeMessagesPaths,
  localize,
  manifestGuid,
  parseLocaleMessages,
  parseManifest,
  stringList,
  stringOrNull,
  targetLocale,
} from './manifest.js';
import { archiveErrors } from '../../archive/archive.errors.js';
import { packageErrors } from './package.errors.js';
import {
  DEFAULT_ZIP_LIMITS,
  type ZipFileInfo,
  type ZipInspection,
  type ZipLimits,
  type ZipMember,
  inspectZip,
} from '../../archive/zip.js';

export interface PackageLimits extends ZipLimits {
  /** Static themes, all files decompressed (compat: 7 MiB). */
  maxStaticThemeSize: number;
}

export const DEFAULT_PACKAGE_LIMITS: Readonly<PackageLimits> = {
  ...DEFAULT_ZIP_LIMITS,
  maxStaticThemeSize: 7 * 1024 * 1024,
};

export interface ParseOptions {
  limits?: Partial<PackageLimits>;
  /** The browser's name in messages ("GUID is required for <browserName> 47 and below."). */
  browserName?: string;
}

export interface ParsedPackage {
  type: AddonType;
  guid: string | null;
  version: string;
  /** `__MSG_…__` references resolved from the default locale when it defines them. */
  name: string | null;
  description: string | null;
  defaultLocale: string | null;
  manifestVersion: number | null;
  apps: { firefox: AppCompatibility; android: AppCompatibility };
  permissions: string[];
  optionalPermissions: string[];
  hostPermissions: string[];
  /** What it says it collects (`gecko.data_collection_permissions.required`), and may ask to (`optional`). */
  dataCollectionPermissions: string[];
  optionalDataCollectionPermissions: string[];
  /** The locale of a language pack or dictionary. */
  targetLocale: string | null;
  /** Declares `experiment_apis` (or `theme_experiment`): needs a special permission to submit. */
  isExperiment: boolean;
  /** Already carries a signature (`META-INF/mozilla.rsa` or `META-INF/cose.sig`). */
  isSigned: boolean;
  /** Always true: only manifest.json packages are accepted. */
  isWebExtension: boolean;
  files: ZipFileInfo[];
  totalSize: number;
}

const MANIFEST = 'manifest.json';
const SIGNATURE_FILES = ['META-INF/mozilla.rsa', 'META-INF/cose.sig'];
const VERSION_MAX_LENGTH = 32;
const VERSION_PATTERN = /^[-+*.\w]{0,32}$/;
const LOWEST_STRICT_MIN_VERSION = '42.0';
/** Older browsers cannot install an add-on that declares no id. */
const FIRST_VERSION_WITHOUT_GUID = '48.0';

async function readManifest(zip: ZipInspection, browserName: string): Promise<Manifest> {
  const data = await zip.read(MANIFEST);
  if (data) return parseManifest(data);
  throw zip.has('install.rdf') ? packageErrors.legacyPackage(browserName) : packageErrors.noManifest();
}

async function readDefaultMessages(zip: ZipInspection, locale: string | null): Promise<LocaleMessages> {
  const path = locale ? localeMessagesPaths(locale).find((candidate) => zip.has(candidate)) : undefined;
  const data = path ? await zip.read(path) : null;
  return data ? parseLocaleMessages(data) : new Map();
}

function manifestVersion(manifest: Manifest): string {
  const version = manifest.version;
  if (typeof version !== 'string' || !version) throw packageErrors.versionMissing();
  return version;
}

function describe(manifest: Manifest, zip: ZipInspection, messages: LocaleMessages): ParsedPackage {
  return {
    type: detectAddonType(manifest),
    guid: manifestGuid(manifest),
    version: manifestVersion(manifest),
    name: localize(stringOrNull(manifest.name), messages),
    description: localize(stringOrNull(manifest.description), messages),
    defaultLocale: stringOrNull(manifest.default_locale),
    manifestVersion: integerOrNull(manifest.manifest_version),
    apps: appCompatibility(manifest),
    permissions: stringList(manifest.permissions),
    optionalPermissions: stringList(manifest.optional_permissions),
    hostPermissions: stringList(manifest.host_permissions),
    dataCollectionPermissions: dataCollectionPermissions(manifest).required,
    optionalDataCollectionPermissions: dataCollectionPermissions(manifest).optional,
    targetLocale: targetLocale(manifest),
    isExperiment: isExperiment(manifest),
    isSigned: SIGNATURE_FILES.some((name) => zip.has(name)),
    isWebExtension: true,
    files: [...zip.files],
    totalSize: zip.totalSize,
  };
}

function isBelow(version: string | null, floor: string): boolean {
  return version !== null && compareAppVersions(simpleAppVersion(version), floor) < 0;
}

function checkAppVersions(pkg: ParsedPackage, browserName: string): void {
  const { firefox, android } = pkg.apps;
  if (pkg.guid === null && isBelow(firefox.strictMinVersion, FIRST_VERSION_WITHOUT_GUID)) {
    throw packageErrors.guidRequired(browserName);
  }
  if ([firefox, android].some((app) => isBelow(app.strictMinVersion, LOWEST_STRICT_MIN_VERSION))) {
    throw packageErrors.strictMinVersionTooLow();
  }
}

/** A version string as uploads accept it (the manifest's `version`); a rollback's new string too. */
export function checkVersion(version: string): void {
  if (version.length > VERSION_MAX_LENGTH) throw packageErrors.versionTooLong();
  if (!VERSION_PATTERN.test(version)) throw packageErrors.versionCharacters();
}

/** The original's order: id, application versions, version string, theme size. */
function checkRules(pkg: ParsedPackage, limits: PackageLimits, browserName: string): void {
  if (pkg.guid !== null && !isValidGuid(pkg.guid)) throw packageErrors.invalidGuid();
  checkAppVersions(pkg, browserName);
  checkVersion(pkg.version);
  if (pkg.type === AddonType.STATICTHEME && pkg.totalSize > limits.maxStaticThemeSize) {
    throw packageErrors.themeTooLarge(limits.maxStaticThemeSize);
  }
}

async function parseInspection(zip: ZipInspection, limits: PackageLimits, browserName: string): Promise<ParsedPackage> {
  const manifest = await readManifest(zip, browserName);
  const messages = await readDefaultMessages(zip, stringOrNull(manifest.default_locale));
  const pkg = describe(manifest, zip, messages);
  checkRules(pkg, limits, browserName);
  return pkg;
}

/**
 * Reads an uploaded package (a path on local disk) and applies the upload rules that need only
 * the package itself. Refusals are `PackageError`s with the message the signing API returns;
 * any other error is ours (I/O, bugs).
 */
export async function parsePackage(path: string, options: ParseOptions = {}): Promise<ParsedPackage> {
  const limits: PackageLimits = { ...DEFAULT_PACKAGE_LIMITS, ...options.limits };
  return inspectZip(path, (zip) => parseInspection(zip, limits, options.browserName ?? 'Firefox'), limits);
}

/**
 * `parsePackage` of files already read whole under the same limits (`readZip`): the same rules
 * and answer, without reading the archive again.
 */
export function parsePackageFiles(files: readonly ZipMember[], options: ParseOptions = {}): Promise<ParsedPackage> {
  const limits: PackageLimits = { ...DEFAULT_PACKAGE_LIMITS, ...options.limits };
  const byName = new Map(files.map((file) => [file.name, file.data]));
  const inspection: ZipInspection = {
    files: files.map((file) => ({ name: file.name, size: file.data.length })),
    totalSize: files.reduce((total, file) => total + file.data.length, 0),
    has: (name) => byName.has(name),
    read: async (name) => {
      const data = byName.get(name);
      if (data && data.length > limits.maxReadSize) throw archiveErrors.fileTooLarge(name);
      return data ?? null;
    },
  };
  return parseInspection(inspection, limits, options.browserName ?? 'Firefox');
}
