import { packageErrors } from './package.errors.js';

/** `{8-4-4-4-12 hex}` or an email-like id; what the original accepts in URLs and packages. */
const GUID_PATTERN = /^(\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[a-z0-9-._]*@[a-z0-9-._]+)$/i;

/** The add-on guid column's width; longer ids could not be stored. */
export const GUID_MAX_LENGTH = 255;

/** A guid taken from the URL is limited further: longer ones must come from the manifest. */
export const URL_GUID_MAX_LENGTH = 64;

export function isValidGuid(guid: string): boolean {
  return guid.length <= GUID_MAX_LENGTH && GUID_PATTERN.test(guid);
}

export function isUrlGuidTooLong(guid: string): boolean {
  return guid.length > URL_GUID_MAX_LENGTH;
}

/** For a package without a guid uploaded to `/addons/<guid>/…`: the URL's guid must do. */
export function assertValidUrlGuid(guid: string): void {
  if (isUrlGuidTooLong(guid)) throw packageErrors.guidTooLong();
  if (!isValidGuid(guid)) throw packageErrors.invalidGuid();
}
