/**
 * Every permission the code asks for, in one place (the original's `constants/permissions.py`).
 * A permission is `app:action`; a group's rules (kept in the database as strings) grant it when
 * they name it or a wildcard covering it (`Addons:*`, `*:Review`, `*:*`): see `hasPermission`.
 * `Viewer.can` takes only these, so a misspelt permission does not compile.
 */
export const Permission = {
  ABUSE_REPORTS_EDIT: 'AbuseReports:Edit',
  ACCOUNTS_SUPER_CREATE: 'Accounts:SuperCreate',
  ADDONS_CONTENT_REVIEW: 'Addons:ContentReview',
  ADDONS_EDIT: 'Addons:Edit',
  ADDONS_POST_REVIEW: 'Addons:PostReview',
  ADDONS_REVIEW: 'Addons:Review',
  ADDONS_REVIEW_UNLISTED: 'Addons:ReviewUnlisted',
  ADDONS_THEME_REVIEW: 'Addons:ThemeReview',
  ADDONS_VIEW_DELETED: 'Addons:ViewDeleted',
  ADMIN_ADVANCED: 'Admin:Advanced',
  ADMIN_CURATION: 'Admin:Curation',
  ADMIN_SCANNERS_RESULTS_VIEW: 'Admin:ScannersResultsView',
  ADMIN_SCANNERS_RULES_EDIT: 'Admin:ScannersRulesEdit',
  ADMIN_SCANNERS_RULES_VIEW: 'Admin:ScannersRulesView',
  APPVERSIONS_CREATE: 'AppVersions:Create',
  BLOCKLIST_CREATE: 'Blocklist:Create',
  BLOCKLIST_SUBMIT: 'Blocklist:Submit',
  COLLECTIONS_CONTRIBUTE: 'Collections:Contribute',
  COLLECTIONS_EDIT: 'Collections:Edit',
  RATINGS_MODERATE: 'Ratings:Moderate',
  REVIEWER_TOOLS_VIEW: 'ReviewerTools:View',
  REVIEWS_ADMIN: 'Reviews:Admin',
  USERS_EDIT: 'Users:Edit',
} as const;

export type Permission = (typeof Permission)[keyof typeof Permission];

/**
 * Permission rules are `app:action` strings; either part may be `*` (`*:*` is full admin).
 * Matching is case-sensitive, as in the original.
 */
export function ruleGrants(rule: string, required: string): boolean {
  const [ruleApp, ruleAction] = splitRule(rule);
  const [app, action] = splitRule(required);
  return (ruleApp === '*' || ruleApp === app) && (ruleAction === '*' || ruleAction === action);
}

export function hasPermission(rules: readonly string[], required: Permission): boolean {
  return rules.some((rule) => ruleGrants(rule, required));
}

export function isValidRule(rule: string): boolean {
  return /^(\*|[A-Za-z][A-Za-z0-9]*):(\*|[A-Za-z][A-Za-z0-9]*)$/.test(rule);
}

function splitRule(rule: string): [string, string] {
  const at = rule.indexOf(':');
  return at < 0 ? [rule, ''] : [rule.slice(0, at), rule.slice(at + 1)];
}
