/**
 * The REST API versions and what differs between them, as named gates (the original's
 * `DRF_API_GATES`): one name per difference, a table of which version has which. Shapers and
 * parameter parsers ask `gate(version, name)` where a shape or a parameter differs; nothing else
 * in the code compares version strings. The GraphQL schema knows none of this.
 *
 * Gates named as in the original keep its names (and its membership, for the differences this
 * service has); the others name differences the contract records between v3 and v4 that the
 * original's table does not list (v5 follows v4 on them).
 */
export const API_VERSIONS = ['v3', 'v4', 'v5'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Every gate, with what it switches on where it is active. */
export const GATES = {
  // The original's gates.
  'ratings-rating-shim': 'the score of a rating is named `rating` (input, output and field errors)',
  'ratings-title-shim': 'ratings and replies carry `title: null`',
  l10n_flat_input_output: 'translated fields with `lang` are one string (else the object of every locale)',
  'collections-downloads-shim': 'collection add-ons carry `downloads: 0`',
  'del-addons-created-field': 'add-ons have no `created`',
  'del-accounts-fxa-edit-email-url': 'the own profile has no `idp_edit_email_url` nor `site_status`',
  'del-version-license-is-custom': 'licenses have no `is_custom`',
  'del-ratings-flags': 'ratings have no `flags`; `show_flags_for` is ignored',
  'activity-user-shim': 'review notes show the full user (id, name, url, username), not only a name',
  'autocomplete-sort-param': 'autocomplete accepts `sort`',
  'is-source-public-shim': 'add-ons carry `is_source_public: false`',
  'is-featured-addon-shim': 'add-ons carry `is_featured`',
  'disco-heading-and-description-shim': 'discovery items carry an HTML `heading` and `description`',
  'wrap-outgoing-parameter':
    'external links are strings, wrapped with `wrap_outgoing_links` (else `{url, outgoing}` objects)',
  'platform-shim': 'files carry `platform`',
  'keep-license-text-in-version-list': 'the version list keeps each license `text`',
  'is-restart-required-shim': 'files carry `is_restart_required: false`',
  'is-webextension-shim': 'files carry `is_webextension`',
  'version-files': 'versions carry a `files` array (else one `file` object)',
  'del-file-host-permissions':
    'files have no `host_permissions` nor data collection permissions: host permissions are among `permissions`',
  'del-addon-is-noindexed': 'add-ons have no `is_noindexed`',
  'del-version-license-slug': 'licenses have no `slug`',
  'del-preview-position': 'previews have no `position`',
  'categories-application': 'add-on categories are an object of slugs per application (else a list of slugs)',
  'promoted-groups-shim': '`promoted` is one object or null (else a list of them)',
  'minimal-profile-has-all-fields-shim':
    'profiles of users without add-ons carry every field, empty (else only id, name, url, username)',
  'addons-search-_score-field': 'search results carry `_score`',
  'ratings-score-filter': 'the ratings list filters by `score`',
  'block-min-max-versions-shim': 'blocks carry `min_version` and `max_version`, the range of the versions blocked',
  'block-versions-list-shim': 'blocks carry `versions`, the list of the versions blocked',
  'del-version-queue-standing': 'version details have no `queue_standing` (this service adds it from v4)',
  // Differences the contract records between v3 and v4 (named here).
  'legacy-applications': 'SeaMonkey and Thunderbird (`suite`, `mailclient`) are known applications',
  'legacy-addon-statuses':
    'add-on statuses keep their legacy names (lite, pending, review-pending, rejected…; else mapped)',
  'static-theme-as-persona': 'static themes are reported and filtered as `persona`',
  'user-name-username-fallback': "a user's `name` falls back to the username (else to a generated name)",
  'anonymous-display-name-needs-username': '`has_anonymous_display_name` also requires an anonymous username',
  'del-file-optional-permissions': 'files have no `optional_permissions`',
  'del-addons-icon-128': 'add-on `icons` stop at 64 pixels',
  'del-addons-promoted-public-stats': 'add-ons have no `promoted` nor `public_stats`',
  'search-authors-picture-url': 'authors in search results keep `picture_url`',
  'contributions-url-empty-string': 'an add-on without a contributions URL has `contributions_url: ""` (else null)',
  'search-single-type': 'the search `type` is one type (else a comma-separated list)',
  'search-author-usernames-only': 'the search `author` takes usernames only (else ids too)',
  'search-default-sort-downloads': 'search without `q` or `sort` sorts by weekly downloads',
  'del-search-recommended-sort': 'search has no `recommended` sort',
  'del-search-rta-guid': 'the search `guid` takes no `rta:` base64url guid',
  'del-ratings-list-v4-params': 'the ratings list ignores `exclude_ratings` and `show_permissions_for`',
  'del-addon-detail-app-filter': 'the add-on detail ignores `app` and `appversion`',
  'abuse-legacy-report-input': 'abuse reports take the legacy body (`addon` or `user` required, legacy messages)',
  'abuse-legacy-report-output': 'abuse reports answer the legacy object',
  'abuse-legacy-report-choices':
    'abuse reports take the 2019 reasons only and no DSA fields (`reporter_name`, `reporter_email`, `location`, `illegal_category`, `illegal_subcategory`; user reports no `reason` nor `lang`), nor answer them',
  'file-status-integer': 'file `status` is the stored number (else its name: unreviewed, public, disabled)',
  'ratings-legacy-addon-summary': "ratings show the add-on's id and slug only, and no `is_deleted`",
  'search-platform-featured-filters': 'search filters by `platform` and `featured`',
  'autocomplete-legacy-suggestion': 'autocomplete suggestions have no `promoted` nor `type`',
  'disco-legacy-addon-subset': 'discovery add-ons are the legacy subset (no authors, ratings, previews)',
  'disco-china-edition-only': 'the discovery `edition` alias `MozillaOnline` is unknown',
  'accounts-username-editable': 'account edits change `username`',
  'accounts-delete-anonymises':
    'deleting an account clears its details and keeps its ratings; refused for add-on developers',
  'accounts-legacy-notifications': 'notification types include `dev_thanks`; `announcements` is on by default',
  'collections-editors-act-on-any':
    "holders of Collections:Edit act on any user's collections (and Admin:Curation holders do not edit them)",
  // Differences v5 clients read that the contract's v3/v4 answers do not have (named here).
  'neutral-names':
    "the contract's neutral names: application `browser`, `idp_edit_email_url`, `is_vendor_signed_extension` " +
    "(else the original's, which today's clients read: `firefox`, `fxa_edit_email_url`, `is_mozilla_signed_extension`)",
  'del-addon-detail-grouped-ratings':
    'the add-on detail ignores `show_grouped_ratings` (else `ratings.grouped_counts`)',
  'browse-validation-url-upload-report':
    "a browsed version's `validation_url_json` is the upload's JSON report (else the API's file validation, `{validation}`)",
} as const satisfies Record<string, string>;

export type Gate = keyof typeof GATES;

/** Which version has which gate (a gate absent from a version's list is off there). */
export const API_GATES: Readonly<Record<ApiVersion, readonly Gate[]>> = {
  v3: [
    'ratings-rating-shim',
    'ratings-title-shim',
    'l10n_flat_input_output',
    'collections-downloads-shim',
    'del-addons-created-field',
    'del-accounts-fxa-edit-email-url',
    'del-version-license-is-custom',
    'del-ratings-flags',
    'activity-user-shim',
    'autocomplete-sort-param',
    'is-source-public-shim',
    'is-featured-addon-shim',
    'disco-heading-and-description-shim',
    'wrap-outgoing-parameter',
    'platform-shim',
    'keep-license-text-in-version-list',
    'is-restart-required-shim',
    'is-webextension-shim',
    'version-files',
    'del-version-license-slug',
    'del-preview-position',
    'categories-application',
    'promoted-groups-shim',
    'minimal-profile-has-all-fields-shim',
    'file-status-integer',
    'neutral-names',
    'legacy-applications',
    'legacy-addon-statuses',
    'static-theme-as-persona',
    'user-name-username-fallback',
    'anonymous-display-name-needs-username',
    'del-file-optional-permissions',
    'del-addons-icon-128',
    'del-addons-promoted-public-stats',
    'search-authors-picture-url',
    'search-single-type',
    'search-author-usernames-only',
    'search-default-sort-downloads',
    'del-search-recommended-sort',
    'del-search-rta-guid',
    'del-ratings-list-v4-params',
    'del-addon-detail-app-filter',
    'abuse-legacy-report-input',
    'abuse-legacy-report-output',
    'search-platform-featured-filters',
    'ratings-legacy-addon-summary',
    'autocomplete-legacy-suggestion',
    'disco-legacy-addon-subset',
    'disco-china-edition-only',
    'accounts-username-editable',
    'accounts-delete-anonymises',
    'accounts-legacy-notifications',
    'collections-editors-act-on-any',
    'del-addon-detail-grouped-ratings',
    'del-version-queue-standing',
    'del-file-host-permissions',
    'del-addon-is-noindexed',
    'abuse-legacy-report-choices',
  ],
  v4: [
    'l10n_flat_input_output',
    'addons-search-_score-field',
    'ratings-score-filter',
    'wrap-outgoing-parameter',
    'platform-shim',
    'keep-license-text-in-version-list',
    'is-restart-required-shim',
    'is-webextension-shim',
    'version-files',
    'del-version-license-slug',
    'del-preview-position',
    'categories-application',
    'promoted-groups-shim',
    'minimal-profile-has-all-fields-shim',
    'file-status-integer',
    'neutral-names',
    'del-addon-detail-grouped-ratings',
    'browse-validation-url-upload-report',
    'contributions-url-empty-string',
    'block-min-max-versions-shim',
    'block-versions-list-shim',
    'del-file-host-permissions',
    'del-addon-is-noindexed',
    'abuse-legacy-report-choices',
  ],
  v5: ['addons-search-_score-field', 'ratings-score-filter', 'block-versions-list-shim'],
};

const ACTIVE: Readonly<Record<ApiVersion, ReadonlySet<Gate>>> = {
  v3: new Set(API_GATES.v3),
  v4: new Set(API_GATES.v4),
  v5: new Set(API_GATES.v5),
};

/** Whether `version` has the difference named `name`. */
export function gate(version: ApiVersion, name: Gate): boolean {
  return ACTIVE[version].has(name);
}

/** Route versions: the whole table, and the paths added in v4 (kept in v5). */
export const ALL_VERSIONS = API_VERSIONS;
export const SINCE_V4 = ['v4', 'v5'] as const;
