/**
 * The length limit of every free-text input of the browser sign-in, in characters: README "Limits"
 * lists every domain's, src/core/text-limits.ts holds the check and its message. "original": the
 * original service's limit; "chosen": this service's (the original stored the text unbounded).
 */
export const SIGNIN_TEXT_LIMITS = {
  /** chosen; where a sign-in returns (`to`): a path or a front-end URL */
  signinReturnTo: 2_000,
  /** chosen; a provider's name in a sign-in request */
  signinProvider: 32,
  /** chosen; the whole callback URL a provider sends the browser to (code, state, …) */
  signinCallbackUrl: 4_096,
  /** chosen; the browser's binding to a sign-in (a random value in its cookie) */
  signinBinding: 128,
  /** chosen; a one-time sign-in link's token */
  signinLinkToken: 200,
} as const;
