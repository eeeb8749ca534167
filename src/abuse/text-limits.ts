/**
 * The length limit of every free-text input of the abuse reports, in characters: README "Limits"
 * lists every domain's, src/core/text-limits.ts holds the check and its message. "original": the
 * original service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const ABUSE_TEXT_LIMITS = {
  /** original (`varchar(255)`); the add-on or user named, and every optional text of an add-on report */
  abuseField: 255,
  /** original (`varchar(64)`); `client_id` */
  abuseClientId: 64,
  /** original (the later serializers' `max_length`); the report's message */
  abuseMessage: 10_000,
  /** chosen; a moderator's note when resolving a report */
  abuseResolutionNote: 2_000,
  /** `varchar(45)`; the reporter's address, cut to it (an address with a zone id may be longer) */
  abuseReporterIp: 45,
} as const;
