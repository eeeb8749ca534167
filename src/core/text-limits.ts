import { fieldMessages } from './messages.js';

/**
 * The length limit of every free-text input, in one place (README "Limits" lists them). Services
 * check a text's length before anything else looks at it (link and address tests, lookups), so a
 * huge value costs one length comparison and is refused with a 400 naming the field: the DRF
 * message `Ensure this field has no more than N characters.` in the field map, through REST and
 * GraphQL alike (VALIDATION_FAILED with `fields`).
 *
 * Lengths count characters (code points), as the original (Python) and PostgreSQL's `varchar(n)`
 * do. Values marked "original" are the original service's; the others are this service's choice
 * (the original stored those in unbounded text columns).
 */
export const TEXT_LIMITS = {
  // Accounts
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

  // Add-on listings (every translation of a translated field)
  /** original */
  addonName: 50,
  /** original */
  addonSummary: 250,
  /** chosen */
  addonDescription: 15_000,
  /** chosen */
  developerComments: 3_000,
  /** chosen (URL fields of the original are 255) */
  addonHomepage: 255,
  /** chosen */
  supportUrl: 255,
  /** chosen */
  supportEmail: 255,
  /** `varchar(255)` */
  contributionsUrl: 255,
  /** original (`max_length=30`); an add-on's slug, checked before its pattern */
  addonSlug: 30,
  /** chosen; each translation of the licence agreement (EULA) */
  addonEula: 50_000,
  /** chosen; each translation of the privacy policy */
  addonPrivacyPolicy: 50_000,
  /** the existing tag rule (2 to 128 characters, "Invalid tag") */
  tag: 128,
  /** chosen; custom licence name */
  licenseName: 200,
  /** chosen; custom licence text (a full GPL text is about 35,000) */
  licenseText: 50_000,
  /** chosen; preview caption */
  previewCaption: 280,
  /** original (`max_length=3000`); each translation of a version's release notes */
  releaseNotes: 3_000,
  /** chosen; a version's notes for reviewers (the original's is an unbounded text column) */
  approvalNotes: 3_000,

  // Collections
  /** chosen */
  collectionName: 100,
  /** original */
  collectionSlug: 30,
  /** chosen */
  collectionDescription: 3_000,
  /** chosen; notes on an add-on of a collection */
  collectionNotes: 3_000,

  // Ratings
  /** chosen; rating (v3 review) text */
  ratingBody: 3_000,
  /** chosen; a developer's reply */
  replyBody: 3_000,
  /** original (`varchar(100)`) */
  flagNote: 100,

  // Search
  /** original */
  searchQuery: 100,

  // Review
  /** chosen; reviewer decisions and review notes, draft comments and canned responses */
  reviewComments: 100_000,
  /** chosen; the file a draft comment is about */
  draftFilename: 1_000,
  /** chosen; a canned response's title */
  cannedTitle: 255,
  /** chosen; a canned response's category */
  cannedCategory: 100,
  /** chosen; the add-on name filter of a review queue */
  queueNameFilter: 100,
  /** chosen; an inbound reply by mail is cut to this before its quoted part is looked for */
  mailBody: 200_000,
  /** `varchar(255)`; denied add-on ids */
  deniedGuid: 255,
  /** chosen; why an add-on id is denied */
  deniedGuidComments: 3_000,
  /** chosen; why an add-on was disabled, enabled, deleted or its id denied (the audit log's comment) */
  lifecycleComment: 3_000,

  // Abuse reports
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

  // Developers (v5 internal endpoints)
  /** original (`max_length=255`); a support ticket's summary */
  supportSummary: 255,
  /** original (`max_length=10000`); a support ticket's body */
  supportBody: 10_000,
  /** chosen; the agreement date sent back when accepting the developer agreement */
  agreementDate: 64,

  // Hero shelves and discovery (curation)
  /** chosen; a primary shelf's description (the add-on's summary is 250) */
  shelfDescription: 250,
  /** original */
  secondaryHeadline: 50,
  /** original */
  secondaryDescription: 100,
  /** original; a secondary shelf module's description */
  moduleDescription: 50,
  /** original; call-to-action text */
  ctaText: 20,
  /** original (`varchar(255)`); call-to-action URLs, featured images, module icons */
  shelfUrl: 255,
  /** chosen; a discovery item's custom heading (v3 HTML template) */
  discoveryHeading: 255,
  /** chosen; a discovery item's custom description */
  discoveryDescription: 1_000,
  /** `varchar(255)` (guids); the add-on (id, slug or guid) of a shelf or discovery item: longer is refused as unknown */
  curatedAddon: 255,
  /** chosen; a primary shelf's gradient colour name: longer is refused as no choice */
  shelfGradient: 40,
  /** original (`varchar(70)`); a home shelf's title */
  homeShelfTitle: 70,
  /** original (`varchar(70)`); a home shelf's footer text */
  homeShelfFooter: 70,
  /** original (`varchar(200)`); a home shelf's criteria (a search query string or a collection slug) */
  homeShelfCriteria: 200,
  /** original (`varchar(255)`); a replacement add-on's id (guid), also the recommendations' `guid` parameter */
  replacementGuid: 255,
  /** original (`varchar(255)`); a replacement add-on's path or URL */
  replacementPath: 255,
  /** original (`varchar(255)`); another browser's extension id in a browser mapping */
  browserExtensionId: 255,

  // Blocklist
  /** `varchar(255)`; the blocked add-on id */
  blockGuid: 255,
  /** `varchar(255)`; a block's `min_version` and `max_version` */
  blockVersion: 255,
  /** chosen; why the add-on is blocked (shown to users) */
  blockReason: 10_000,
  /** `varchar(255)`; the block's documentation URL */
  blockUrl: 255,

  // Webhooks
  /** chosen */
  webhookUrl: 2_000,
  /** `varchar(255)` */
  webhookDescription: 255,

  // Trusted publishing
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

  // API keys
  /** `varchar(100)`; a scoped API key's name */
  apiKeyName: 100,

  // Sign-in
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

export type TextLimit = keyof typeof TEXT_LIMITS;

/** The original's (Django REST framework's) message. */
export const maxLengthMessage = fieldMessages.maxLength;

/**
 * Whether `text` has more than `max` characters (code points). Reads at most `2 * max + 2` code
 * units, whatever the length of the text.
 */
export function exceedsLength(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (let i = 0; i < text.length; i += isPairAt(text, i) ? 2 : 1) if (++count > max) return true;
  return false;
}

/** A surrogate pair (one character, two code units) starts at `i`. */
function isPairAt(text: string, i: number): boolean {
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}

/** The max-length message when `text` is over the limit, else null. */
export function lengthProblem(text: string | null | undefined, limit: TextLimit | number): string | null {
  const max = typeof limit === 'number' ? limit : TEXT_LIMITS[limit];
  return typeof text === 'string' && exceedsLength(text, max) ? maxLengthMessage(max) : null;
}

/** `text` cut to at most `limit` characters (a surrogate pair is never split). */
export function truncateText(text: string, limit: TextLimit | number): string {
  const max = typeof limit === 'number' ? limit : TEXT_LIMITS[limit];
  if (!exceedsLength(text, max)) return text;
  let units = 0;
  for (let count = 0; count < max; count++) units += isPairAt(text, units) ? 2 : 1;
  return text.slice(0, units);
}
