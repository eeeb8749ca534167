/**
 * The enumerations of an add-on abuse report (contract "Abuse enumerations (v4)"), as the API names
 * them: lower case, `:` and `-` as `_`. Input is normalised the same way before it is matched.
 */
export const ABUSE_REASONS = [
  'damage',
  'spam',
  'settings',
  'broken',
  'policy',
  'deceptive',
  'unwanted',
  'other',
] as const;

export const REPORT_ENTRY_POINTS = ['uninstall', 'menu', 'toolbar_context_menu', 'site'] as const;

/** `enterprise_policy` … `sync` are obsolete, kept for compatibility. */
export const ADDON_INSTALL_METHODS = [
  'amwebapi',
  'link',
  'installtrigger',
  'install_from_file',
  'management_webext_api',
  'drag_and_drop',
  'sideload',
  'file_url',
  'url',
  'other',
  'enterprise_policy',
  'distribution',
  'system_addon',
  'temporary_addon',
  'sync',
] as const;

export const ADDON_INSTALL_SOURCES = [
  'about_addons',
  'about_debugging',
  'about_preferences',
  'site',
  'app_profile',
  'disco',
  'distribution',
  'extension',
  'enterprise_policy',
  'file_url',
  'gmp_plugin',
  'internal',
  'plugin',
  'return_to_site',
  'sync',
  'system_addon',
  'temporary_addon',
  'unknown',
  'other',
] as const;

export const ADDON_SIGNATURES = [
  'curated_and_partner',
  'curated',
  'partner',
  'non_curated',
  'unsigned',
  'broken',
  'unknown',
  'missing',
  'preliminary',
  'signed',
  'system',
  'privileged',
] as const;

/** The application a report comes from (`app`): the desktop browser when not given, as the original. */
export const ABUSE_APPS = ['browser', 'android'] as const;
export const DEFAULT_ABUSE_APP = 'browser';

/** The API's form of an enumeration value: lower case, `:` and `-` as `_`. */
export function normaliseChoice(value: string): string {
  return value.toLowerCase().replace(/[:-]/g, '_');
}
