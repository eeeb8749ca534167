/**
 * The length limit of every free-text input of the webhooks, in characters: README "Limits" lists
 * every domain's, src/core/text-limits.ts holds the check and its message. "original": the original
 * service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const WEBHOOKS_TEXT_LIMITS = {
  /** chosen */
  webhookUrl: 2_000,
  /** `varchar(255)` */
  webhookDescription: 255,
} as const;
