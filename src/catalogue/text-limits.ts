/**
 * The length limit of every free-text input of the catalogue (add-on listings, every translation of
 * a translated field; versions' notes; the lifecycle's comments and denied add-on ids), in
 * characters: README "Limits" lists every domain's, src/core/text-limits.ts holds the check and its
 * message. "original": the original service's limit; "chosen": this service's (the original stored
 * the text unbounded).
 */
export const CATALOGUE_TEXT_LIMITS = {
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
  /** `varchar(255)`; denied add-on ids */
  deniedGuid: 255,
  /** chosen; why an add-on id is denied */
  deniedGuidComments: 3_000,
  /** chosen; why an add-on was disabled, enabled, deleted or its id denied (the audit log's comment) */
  lifecycleComment: 3_000,
} as const;
