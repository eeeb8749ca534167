import { DATETIME_FORMAT_MESSAGE, parseDateTimeInput } from '../core/dates.js';
import { isEmailAddress } from '../core/email.js';
import { errors } from '../core/errors.js';
import type { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import type { AbuseReport } from './abuse-report.entity.js';
import {
  ABUSE_APPS,
  ABUSE_LOCATIONS,
  ABUSE_REASONS,
  CURRENT_ABUSE_REASONS,
  DSA_CONTENT_REASONS,
  ILLEGAL_CATEGORIES,
  ILLEGAL_REASON,
  ILLEGAL_SUBCATEGORIES,
  subcategoryFits,
  ADDON_INSTALL_METHODS,
  ADDON_INSTALL_SOURCES,
  ADDON_SIGNATURES,
  CURRENT_ADDON_INSTALL_SOURCES,
  CURRENT_ADDON_SIGNATURES,
  CURRENT_REPORT_ENTRY_POINTS,
  ORIGINAL_CHOICE_NAMES,
  UNKNOWN_SIGNATURE_PREFIX,
  withOriginalNames,
  REPORT_ENTRY_POINTS,
  normaliseChoice,
} from './abuse.enums.js';
import { ABUSE_TEXT_LIMITS } from './text-limits.js';

/*
 * A report's fields as clients give them, and their checks: every field's length before anything
 * else reads it, each field's kind (text, choice, date, address), then the rules across fields.
 */

/** The fields every report takes (the feedback forms' DSA notice): absent (undefined), null or text. */
export interface ReportCommonInput {
  message?: string | null;
  reason?: string | null;
  lang?: string | null;
  reporterName?: string | null;
  reporterEmail?: string | null;
  illegalCategory?: string | null;
  illegalSubcategory?: string | null;
}

/** An add-on report's fields as a client gives them: absent (undefined), null or text. */
export interface AddonReportInput extends ReportCommonInput {
  addon?: string | null;
  /** Only the 2019 Firefox reasons are choices (the v3/v4 REST contract). */
  firefoxReasonsOnly?: boolean | null;
  /** The original's names for entry points and install sources (`amo`, `rtamo`: REST v5). */
  originalNames?: boolean | null;
  location?: string | null;
  reportEntryPoint?: string | null;
  addonInstallMethod?: string | null;
  addonInstallOrigin?: string | null;
  addonInstallSource?: string | null;
  addonInstallSourceUrl?: string | null;
  addonName?: string | null;
  addonSignature?: string | null;
  addonSummary?: string | null;
  addonVersion?: string | null;
  app?: string | null;
  appversion?: string | null;
  clientId?: string | null;
  installDate?: string | null;
  operatingSystem?: string | null;
  operatingSystemVersion?: string | null;
}

export interface UserReportInput extends ReportCommonInput {
  user?: string | null;
}

export interface RatingReportInput extends ReportCommonInput {
  /** The rating's id. */
  rating?: string | null;
}

export interface CollectionReportInput extends ReportCommonInput {
  /** The collection's id. */
  collection?: string | null;
}

export const abuseMessages = {
  invalidChoice: fieldMessages.choice,
  alreadyResolved: 'This report is already resolved.',
  noAddonToDisable: 'This report is not about an add-on of the site.',
  notWithReason: 'This value must be omitted or set to "null" when the `reason` is not "illegal".',
  notWithCategory: 'This value cannot be used in combination with the supplied `illegal_category`.',
};

/** `choice`: normalised, then matched; `lenientChoice`: unknown values are `other`; `exactChoice`: as given. */
type Kind = 'text' | 'choice' | 'lenientChoice' | 'exactChoice' | 'date' | 'email';

/** An optional field of a report: its input key, REST name, kind and length limit. */
export interface OptionalField {
  key: Exclude<keyof AddonReportInput, 'addon' | 'message' | 'firefoxReasonsOnly' | 'originalNames'>;
  name: string;
  kind: Kind;
  choices?: readonly string[];
  /** Choices stored under another name (the original's `amo` is stored as `site`). */
  aliases?: Readonly<Record<string, string>>;
  /** Firefox's `unknown: <detail>` signature states are stored as `unknown`, as the original does. */
  unknownSignature?: boolean;
  max?: number;
}

/** The fields of every report; `reason` is the content reasons' (an add-on report takes every reason). */
export const COMMON_FIELDS: readonly OptionalField[] = [
  { key: 'reason', name: 'reason', kind: 'choice', choices: DSA_CONTENT_REASONS },
  { key: 'lang', name: 'lang', kind: 'text' },
  { key: 'reporterName', name: 'reporter_name', kind: 'text' },
  { key: 'reporterEmail', name: 'reporter_email', kind: 'email' },
  { key: 'illegalCategory', name: 'illegal_category', kind: 'choice', choices: ILLEGAL_CATEGORIES },
  { key: 'illegalSubcategory', name: 'illegal_subcategory', kind: 'choice', choices: ILLEGAL_SUBCATEGORIES },
];

/** An add-on report's fields with the given entry points, install sources and signatures. */
function addonFields(
  entryPoints: readonly string[],
  installSources: readonly string[],
  signatures: readonly string[],
  extra: Pick<OptionalField, 'aliases' | 'unknownSignature'> = {},
): readonly OptionalField[] {
  const { aliases, unknownSignature } = extra;
  return [
    { key: 'reason', name: 'reason', kind: 'choice', choices: CURRENT_ABUSE_REASONS },
    ...COMMON_FIELDS.slice(1),
    { key: 'location', name: 'location', kind: 'choice', choices: ABUSE_LOCATIONS },
    { key: 'reportEntryPoint', name: 'report_entry_point', kind: 'choice', choices: entryPoints, aliases },
    { key: 'addonInstallMethod', name: 'addon_install_method', kind: 'lenientChoice', choices: ADDON_INSTALL_METHODS },
    { key: 'addonInstallOrigin', name: 'addon_install_origin', kind: 'text' },
    {
      key: 'addonInstallSource',
      name: 'addon_install_source',
      kind: 'lenientChoice',
      choices: installSources,
      aliases,
    },
    { key: 'addonInstallSourceUrl', name: 'addon_install_source_url', kind: 'text' },
    { key: 'addonName', name: 'addon_name', kind: 'text' },
    { key: 'addonSignature', name: 'addon_signature', kind: 'choice', choices: signatures, unknownSignature },
    { key: 'addonSummary', name: 'addon_summary', kind: 'text' },
    { key: 'addonVersion', name: 'addon_version', kind: 'text' },
    { key: 'app', name: 'app', kind: 'exactChoice', choices: ABUSE_APPS },
    { key: 'appversion', name: 'appversion', kind: 'text' },
    { key: 'clientId', name: 'client_id', kind: 'text', max: ABUSE_TEXT_LIMITS.abuseClientId },
    { key: 'installDate', name: 'install_date', kind: 'date' },
    { key: 'operatingSystem', name: 'operating_system', kind: 'text' },
    { key: 'operatingSystemVersion', name: 'operating_system_version', kind: 'text' },
  ];
}

/** Today's choices, by their stored (neutral) names: GraphQL. */
const OPTIONAL_FIELDS = addonFields(
  CURRENT_REPORT_ENTRY_POINTS,
  CURRENT_ADDON_INSTALL_SOURCES,
  CURRENT_ADDON_SIGNATURES,
  {
    unknownSignature: true,
  },
);

/** Today's choices by the original's names (`amo`, `rtamo`; REST v5), stored by the neutral ones. */
const ORIGINAL_NAME_FIELDS = addonFields(
  withOriginalNames(CURRENT_REPORT_ENTRY_POINTS),
  withOriginalNames(CURRENT_ADDON_INSTALL_SOURCES),
  CURRENT_ADDON_SIGNATURES,
  { aliases: ORIGINAL_CHOICE_NAMES, unknownSignature: true },
);

/** The contract's lists (REST v4): the 2019 reasons, no newer entry point, source or signature. */
const FIREFOX_REASON_FIELDS: readonly OptionalField[] = [
  { key: 'reason', name: 'reason', kind: 'choice', choices: ABUSE_REASONS },
  ...addonFields(REPORT_ENTRY_POINTS, ADDON_INSTALL_SOURCES, ADDON_SIGNATURES).slice(1),
];

export type ReportValues = Partial<Pick<AbuseReport, OptionalField['key']>>;

/** The fields of an add-on report, by the lists and names the caller's API uses. */
export function addonReportFields(input: AddonReportInput): readonly OptionalField[] {
  return input.firefoxReasonsOnly
    ? FIREFOX_REASON_FIELDS
    : input.originalNames
      ? ORIGINAL_NAME_FIELDS
      : OPTIONAL_FIELDS;
}

/**
 * Checks a report's optional fields (every refused one at once, keyed by its REST name, after the
 * target's), then the rules across fields as DRF's validate(), the first broken one alone: a message
 * unless a reason is given; with the reason `illegal` a category and a subcategory of that category,
 * without it neither.
 */
export function checkFields(
  fields: FieldErrorCollector,
  input: AddonReportInput,
  optional: readonly OptionalField[],
  messageRequired = false,
): { values: ReportValues; text: string } {
  const message = input.message;
  if (messageRequired) requiredText(message, ABUSE_TEXT_LIMITS.abuseMessage, (m) => fields.add('message', m));
  else if (message === null) fields.add('message', fieldMessages.null);
  else if (message !== undefined && lengthProblem(message, ABUSE_TEXT_LIMITS.abuseMessage)) {
    fields.add('message', lengthProblem(message, ABUSE_TEXT_LIMITS.abuseMessage)!);
  }
  const values: ReportValues = {};
  const texts = values as Record<string, string | null>;
  for (const field of optional) {
    const value = input[field.key];
    if (value === undefined || value === null) {
      if (value === null) texts[field.key] = null;
      continue;
    }
    const problem = lengthProblem(value, field.max ?? ABUSE_TEXT_LIMITS.abuseField);
    if (problem) {
      fields.add(field.name, problem);
      continue;
    }
    if (field.kind === 'text') {
      texts[field.key] = value.trim();
    } else if (field.kind === 'email') {
      if (isEmailAddress(value.trim())) texts[field.key] = value.trim();
      else fields.add(field.name, fieldMessages.email);
    } else if (field.kind === 'date') {
      const date = parseDateTimeInput(value);
      if (date) values.installDate = date;
      else fields.add(field.name, DATETIME_FORMAT_MESSAGE);
    } else if (field.unknownSignature && value.trim().toLowerCase().startsWith(UNKNOWN_SIGNATURE_PREFIX)) {
      texts[field.key] = 'unknown';
    } else {
      const choice = field.kind === 'exactChoice' ? value : normaliseChoice(value);
      if (field.choices!.includes(choice)) texts[field.key] = field.aliases?.[choice] ?? choice;
      else if (field.kind === 'lenientChoice') texts[field.key] = 'other';
      else fields.add(field.name, abuseMessages.invalidChoice(value));
    }
  }
  fields.throwIfAny();

  const text = message?.trim() ?? '';
  if (!values.reason && !text) {
    throw errors.validation({ message: [message === undefined ? fieldMessages.required : fieldMessages.blank] });
  }
  const illegal = values.reason === ILLEGAL_REASON;
  for (const [key, name] of [
    ['illegalCategory', 'illegal_category'],
    ['illegalSubcategory', 'illegal_subcategory'],
  ] as const) {
    const given = input[key];
    if (illegal) {
      if (given === undefined) throw errors.validation({ [name]: [fieldMessages.required] });
      if (given === null) throw errors.validation({ [name]: [fieldMessages.null] });
      if (key === 'illegalSubcategory' && !subcategoryFits(values.illegalCategory!, values.illegalSubcategory!)) {
        throw errors.validation({ [name]: [abuseMessages.notWithCategory] });
      }
    } else if (given !== undefined && given !== null) {
      throw errors.validation({ [name]: [abuseMessages.notWithReason] });
    }
  }
  return { values, text };
}

/** A positive integer id, or null. */
export function idOf(value: string): number | null {
  const n = /^\d{1,10}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

/** A required text field, or undefined after passing its refusal (required, null, too long, blank) to `refuse`. */
export function requiredText(
  value: string | null | undefined,
  max: number,
  refuse: (message: string) => void,
): string | undefined {
  const problem =
    value === undefined
      ? fieldMessages.required
      : value === null
        ? fieldMessages.null
        : (lengthProblem(value, max) ?? (value.trim() ? null : fieldMessages.blank));
  if (problem === null) return value!;
  refuse(problem);
  return undefined;
}
