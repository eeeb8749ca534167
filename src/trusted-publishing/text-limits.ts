/**
 * The length limit of every free-text input of the trusted publishing, in characters: README
 * "Limits" lists every domain's, src/core/text-limits.ts holds the check and its message.
 * "original": the original service's limit; "chosen": this service's (the original stored the text
 * unbounded).
 */
export const TRUSTED_PUBLISHING_TEXT_LIMITS = {
  /** `varchar(255)`; a trusted publisher's issuer URL and expected audience */
  trustedPublisherIssuer: 255,
  /** chosen; the name of a claim a trusted publisher requires */
  trustedPublisherClaim: 64,
  /** chosen; the value a trusted publisher requires of a claim */
  trustedPublisherClaimValue: 255,
  /** chosen; an OIDC ID token exchanged for an API key (refused before it is parsed) */
  oidcToken: 8_192,
  /** `varchar(255)` (a guid or slug); the add-on an OIDC token exchange names */
  oidcExchangeAddon: 255,
} as const;
