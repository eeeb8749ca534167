import { errors } from '../../src/core/errors.js';
import { FieldErrorCollector } from '../../src/core/field-errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { gate, type ApiVersion } from '../gates.js';
import { neutralAppName } from '../shapes/enums.js';
import { jsonObject, type Body } from './fields.js';

/**
 * Bodies of `POST /api/{v}/abuse/report/{addon,user}/` as GraphQL input (AbuseService checks the
 * values). v4 reads every field of the contract: keys absent stay absent, text and numbers are
 * text, null is null, anything else is DRF's "Not a valid string." (every such field at once).
 * v3 is the 2018 form: `addon` (or `user`) and `message` only, a missing or empty one refused with
 * the original's `{"detail": …}` before anything else.
 */
const ADDON_FIELDS: Record<string, string> = {
  addon: 'addon',
  message: 'message',
  reason: 'reason',
  report_entry_point: 'reportEntryPoint',
  addon_install_method: 'addonInstallMethod',
  addon_install_origin: 'addonInstallOrigin',
  addon_install_source: 'addonInstallSource',
  addon_install_source_url: 'addonInstallSourceUrl',
  addon_name: 'addonName',
  addon_signature: 'addonSignature',
  addon_summary: 'addonSummary',
  addon_version: 'addonVersion',
  app: 'app',
  appversion: 'appversion',
  lang: 'lang',
  client_id: 'clientId',
  install_date: 'installDate',
  operating_system: 'operatingSystem',
  operating_system_version: 'operatingSystemVersion',
};

/** What v5 adds to every report (the feedback form's DSA notice), and to add-on reports. */
const DSA_FIELDS: Record<string, string> = {
  reason: 'reason',
  lang: 'lang',
  reporter_name: 'reporterName',
  reporter_email: 'reporterEmail',
  illegal_category: 'illegalCategory',
  illegal_subcategory: 'illegalSubcategory',
};
const ADDON_V5_FIELDS: Record<string, string> = { ...ADDON_FIELDS, ...DSA_FIELDS, location: 'location' };

const USER_FIELDS: Record<string, string> = { user: 'user', message: 'message' };
const USER_V5_FIELDS: Record<string, string> = { ...USER_FIELDS, ...DSA_FIELDS };
const RATING_FIELDS: Record<string, string> = { rating: 'rating', message: 'message', ...DSA_FIELDS };
const COLLECTION_FIELDS: Record<string, string> = { collection: 'collection', message: 'message', ...DSA_FIELDS };

export const abuseV3Messages = {
  needAddon: 'Need an addon parameter',
  needUser: 'Need a user parameter',
  needMessage: 'Abuse reports need a message',
};

export function addonReportFromBody(body: unknown, version: ApiVersion): Record<string, unknown> {
  const data = jsonObject(body);
  if (gate(version, 'abuse-legacy-report-input')) return legacy(data, 'addon', abuseV3Messages.needAddon);
  const legacyChoices = gate(version, 'abuse-legacy-report-choices');
  const input = textFields(data, legacyChoices ? ADDON_FIELDS : ADDON_V5_FIELDS);
  if (typeof input.app === 'string') input.app = neutralAppName(input.app, version);
  // v4 keeps the 2019 reasons: the feedback form's are not choices there.
  if (legacyChoices) input.firefoxReasonsOnly = true;
  // v5 speaks the original's names (`amo`, `rtamo`); the contract's versions the neutral ones.
  else if (!gate(version, 'neutral-names')) input.originalNames = true;
  return input;
}

export function userReportFromBody(body: unknown, version: ApiVersion): Record<string, unknown> {
  const data = jsonObject(body);
  if (gate(version, 'abuse-legacy-report-input')) return legacy(data, 'user', abuseV3Messages.needUser);
  return textFields(data, gate(version, 'abuse-legacy-report-choices') ? USER_FIELDS : USER_V5_FIELDS);
}

/** v5 only: `POST /api/v5/abuse/report/rating/`. */
export function ratingReportFromBody(body: unknown): Record<string, unknown> {
  return textFields(jsonObject(body), RATING_FIELDS);
}

/** v5 only: `POST /api/v5/abuse/report/collection/`. */
export function collectionReportFromBody(body: unknown): Record<string, unknown> {
  return textFields(jsonObject(body), COLLECTION_FIELDS);
}

function textFields(data: Body, fields: Record<string, string>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const refused = new FieldErrorCollector();
  for (const [field, name] of Object.entries(fields)) {
    if (!(field in data)) continue;
    const value = text(data[field]);
    if (value === undefined) refused.add(field, fieldMessages.string);
    else input[name] = value;
  }
  refused.throwIfAny();
  return input;
}

/** The 2018 views: `data.get(target)` and `data.get('message')` must be truthy (a ParseError otherwise). */
function legacy(data: Body, target: 'addon' | 'user', missing: string): Record<string, unknown> {
  const named = text(data[target]);
  if (!named) throw errors.badRequest(missing);
  const message = text(data.message);
  if (!message || !message.trim()) throw errors.badRequest(abuseV3Messages.needMessage);
  return { [target]: named, message };
}

/** A CharField's input: text, a number as its text, null; undefined for anything else. */
function text(value: unknown): string | null | undefined {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}
