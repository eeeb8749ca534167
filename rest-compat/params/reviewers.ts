import { FieldErrorCollector } from '../../src/core/field-errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { DATETIME_FORMAT_MESSAGE, parseDateTimeInput } from '../../src/core/dates.js';
import { drfBoolean, jsonObject } from './fields.js';

/**
 * `PATCH /api/v4/reviewers/addon/<id>/flags/`: the original's AddonReviewerFlags serializer as
 * GraphQL input. Keys absent stay absent; unknown keys are ignored; every refused field is reported
 * at once, with DRF's messages.
 */
const BOOLEAN_FLAGS: Record<string, string> = {
  auto_approval_disabled: 'autoApprovalDisabled',
  auto_approval_disabled_until_next_approval: 'autoApprovalDisabledUntilNextApproval',
  needs_admin_code_review: 'needsAdminCodeReview',
  needs_admin_content_review: 'needsAdminContentReview',
  needs_admin_theme_review: 'needsAdminThemeReview',
};

export function reviewerFlagsFromBody(body: unknown): Record<string, unknown> {
  const data = jsonObject(body);
  const input: Record<string, unknown> = {};
  const refused = new FieldErrorCollector();
  for (const [field, name] of Object.entries(BOOLEAN_FLAGS)) {
    if (!(field in data)) continue;
    const value = drfBoolean(data[field]);
    if (value === null) refused.add(field, fieldMessages.null);
    else if (value === undefined) refused.add(field, fieldMessages.boolean);
    else input[name] = value;
  }
  if ('auto_approval_delayed_until' in data) {
    const value = data.auto_approval_delayed_until;
    const date = value === null ? null : parseDateTimeInput(value);
    if (date === undefined) refused.add('auto_approval_delayed_until', DATETIME_FORMAT_MESSAGE);
    else input.autoApprovalDelayedUntil = date?.toISOString() ?? null;
  }
  refused.throwIfAny();
  return input;
}

/** A draft comment's JSON body: absent keys stay absent; DRF's messages for wrong types. */
export function draftCommentFromBody(body: unknown): Record<string, unknown> {
  const data = jsonObject(body);
  const input: Record<string, unknown> = {};
  const refused = new FieldErrorCollector();
  for (const [field, name] of [
    ['comment', 'comment'],
    ['filename', 'filename'],
  ] as const) {
    if (!(field in data)) continue;
    const value = data[field];
    if (value === null || typeof value === 'string') input[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') input[name] = String(value);
    else refused.add(field, fieldMessages.string);
  }
  if ('lineno' in data) {
    const value = integer(data.lineno);
    if (value === undefined) refused.add('lineno', fieldMessages.integer);
    else input.lineno = value;
  }
  if ('canned_response' in data) {
    const value = data.canned_response;
    const digits = typeof value === 'string' && value.length <= 9 && /^\d{1,9}$/.test(value);
    const id = typeof value === 'number' || digits ? integer(value) : undefined;
    if (value === null) input.cannedResponse = null;
    else if (id === undefined || id === null) {
      refused.add('canned_response', fieldMessages.pkIncorrectType(typeof value === 'string' ? 'str' : typeof value));
    } else input.cannedResponse = id;
  }
  refused.throwIfAny();
  return input;
}

/** An IntegerField's value (GraphQL's Int range), null, or undefined when it is none. */
function integer(value: unknown): number | null | undefined {
  if (value === null) return null;
  // Eleven characters hold any Int (sign and ten digits): longer text is refused before the pattern.
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null || text.length > 11 || !/^-?\d{1,10}$/.test(text)) return undefined;
  const n = Number(text);
  return Math.abs(n) <= 2 ** 31 - 1 ? n : undefined;
}
