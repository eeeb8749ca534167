/**
 * The length limit of every free-text input of the accounts (profiles, account creation, super-
 * create, the developer agreement, scoped API keys), in characters: README "Limits" lists every
 * domain's, src/core/text-limits.ts holds the check and its message. "original": the original
 * service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const ACCOUNTS_TEXT_LIMITS = {
  /** original (2 to 50) */
  displayName: 50,
  /** original (Django's username field); v3 edits and account creation */
  username: 150,
  /** chosen; the original refuses links in it, not lengths */
  biography: 3_000,
  /** original (`varchar(255)`) */
  homepage: 255,
  /** original */
  location: 255,
  /** original */
  occupation: 255,
  /** original (`varchar(255)`); account creation, super-create */
  email: 255,
  /** `varchar(255)`; super-create */
  idpId: 255,
  /** chosen; the agreement date sent back when accepting the developer agreement */
  agreementDate: 64,
  /** `varchar(100)`; a scoped API key's name */
  apiKeyName: 100,
} as const;
