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

/** The contract's entry points (v3/v4 keep these); `site` is the original's `amo`. */
export const REPORT_ENTRY_POINTS = ['uninstall', 'menu', 'toolbar_context_menu', 'site'] as const;
/** Today's entry points (GraphQL, REST v5): the extensions panel's context menu too. */
export const CURRENT_REPORT_ENTRY_POINTS = [...REPORT_ENTRY_POINTS, 'unified_context_menu'] as const;

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

/**
 * Today's install sources (GraphQL, REST v5): the contract's (which v3/v4 keep, storing the newer
 * ones as `other`) and the Windows registry and application locations Firefox reports since.
 */
export const CURRENT_ADDON_INSTALL_SOURCES = [
  ...ADDON_INSTALL_SOURCES,
  'winreg_app_user',
  'winreg_app_global',
  'app_system_profile',
  'app_system_addons',
  'app_system_defaults',
  'app_builtin',
  'app_system_user',
  'app_global',
  'app_system_share',
  'app_system_local',
] as const;

/**
 * The stored (neutral) names of the choices the original spells after its site: REST v5 takes and
 * answers `amo` and `rtamo` (gate `neutral-names` off), stored as `site` and `return_to_site`.
 */
export const ORIGINAL_CHOICE_NAMES: Readonly<Record<string, string>> = { amo: 'site', rtamo: 'return_to_site' };
const NEUTRAL_TO_ORIGINAL: Readonly<Record<string, string>> = { site: 'amo', return_to_site: 'rtamo' };

/** A stored entry point or install source as the original names it (REST v5). */
export function originalChoiceName(value: string | null): string | null {
  return value === null ? null : (NEUTRAL_TO_ORIGINAL[value] ?? value);
}

/** A choice list with the original's names in place of the neutral ones. */
export function withOriginalNames(choices: readonly string[]): readonly string[] {
  return choices.map((c) => NEUTRAL_TO_ORIGINAL[c] ?? c);
}

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

/** Today's signature states (GraphQL, REST v5); Firefox's `unknown: <detail>` is stored as `unknown`. */
export const CURRENT_ADDON_SIGNATURES = [...ADDON_SIGNATURES, 'not_required'] as const;
export const UNKNOWN_SIGNATURE_PREFIX = 'unknown: ';

/** The application a report comes from (`app`): the desktop browser when not given, as the original. */
export const ABUSE_APPS = ['browser', 'android'] as const;
export const DEFAULT_ABUSE_APP = 'browser';

/** The API's form of an enumeration value: lower case, `:` and `-` as `_`. */
export function normaliseChoice(value: string): string {
  return value.toLowerCase().replace(/[:-]/g, '_');
}

/**
 * The reasons of the current feedback forms (v5, GraphQL): the 2019 Firefox reasons above, the DSA
 * reasons and the feedback (non-DSA) ones. An add-on report takes any of them; a user, rating or
 * collection report only the content reasons.
 */
export const DSA_CONTENT_REASONS = ['hateful_violent_deceptive', 'illegal', 'feedback_spam', 'something_else'] as const;
export const CURRENT_ABUSE_REASONS = [
  ...ABUSE_REASONS,
  'hateful_violent_deceptive',
  'illegal',
  'policy_violation',
  'something_else',
  'does_not_work',
  'feedback_spam',
] as const;
export const ILLEGAL_REASON = 'illegal';

/** Where the reported content is: on the site's page, inside the add-on, or both. */
export const ABUSE_LOCATIONS = ['amo', 'addon', 'both'] as const;

/** The DSA statement categories (without their `STATEMENT_CATEGORY_` prefix), in lower case. */
export const ILLEGAL_CATEGORIES = [
  'animal_welfare',
  'consumer_information',
  'data_protection_and_privacy_violations',
  'illegal_or_harmful_speech',
  'intellectual_property_infringements',
  'negative_effects_on_civic_discourse_or_elections',
  'non_consensual_behaviour',
  'pornography_or_sexualized_content',
  'protection_of_minors',
  'risk_for_public_security',
  'scams_and_fraud',
  'self_harm',
  'unsafe_and_prohibited_products',
  'violence',
  'other',
] as const;
export type IllegalCategory = (typeof ILLEGAL_CATEGORIES)[number];

/** The subcategories each category takes (every one takes `other`). */
export const ILLEGAL_SUBCATEGORIES_BY_CATEGORY: Readonly<Record<IllegalCategory, readonly string[]>> = {
  animal_welfare: [],
  consumer_information: [
    'insufficient_information_on_traders',
    'noncompliance_pricing',
    'hidden_advertisement',
    'misleading_info_goods_services',
    'misleading_info_consumer_rights',
  ],
  data_protection_and_privacy_violations: [
    'biometric_data_breach',
    'missing_processing_ground',
    'right_to_be_forgotten',
    'data_falsification',
  ],
  illegal_or_harmful_speech: ['defamation', 'discrimination', 'hate_speech'],
  intellectual_property_infringements: [
    'design_infringement',
    'geographic_indications_infringement',
    'patent_infringement',
    'trade_secret_infringement',
  ],
  negative_effects_on_civic_discourse_or_elections: [
    'violation_eu_law',
    'violation_national_law',
    'misinformation_disinformation_disinformation',
  ],
  non_consensual_behaviour: [
    'non_consensual_image_sharing',
    'non_consensual_items_deepfake',
    'online_bullying_intimidation',
    'stalking',
  ],
  pornography_or_sexualized_content: ['adult_sexual_material', 'image_based_sexual_abuse'],
  protection_of_minors: [
    'age_specific_restrictions_minors',
    'child_sexual_abuse_material',
    'grooming_sexual_enticement_minors',
  ],
  risk_for_public_security: [
    'illegal_organizations',
    'risk_environmental_damage',
    'risk_public_health',
    'terrorist_content',
  ],
  scams_and_fraud: [
    'inauthentic_accounts',
    'inauthentic_listings',
    'inauthentic_user_reviews',
    'impersonation_account_hijacking',
    'phishing',
    'pyramid_schemes',
  ],
  self_harm: ['content_promoting_eating_disorders', 'self_mutilation', 'suicide'],
  unsafe_and_prohibited_products: ['prohibited_products', 'unsafe_products'],
  violence: [
    'coordinated_harm',
    'gender_based_violence',
    'human_exploitation',
    'human_trafficking',
    'incitement_violence_hatred',
  ],
  other: [],
};

export const ILLEGAL_SUBCATEGORIES: readonly string[] = [
  'other',
  ...new Set(Object.values(ILLEGAL_SUBCATEGORIES_BY_CATEGORY).flat()),
];

/** Whether `subcategory` goes with `category`. */
export function subcategoryFits(category: string, subcategory: string): boolean {
  if (subcategory === 'other') return (ILLEGAL_CATEGORIES as readonly string[]).includes(category);
  return ILLEGAL_SUBCATEGORIES_BY_CATEGORY[category as IllegalCategory]?.includes(subcategory) ?? false;
}
