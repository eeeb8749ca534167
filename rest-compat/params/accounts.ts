import { AppError, ErrorCode, errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import type { AccountInput, SuperCreateInput } from '../../src/accounts/accounts.service.js';
import type { NotificationChange } from '../../src/accounts/notifications.service.js';
import { drfBoolean, jsonObject } from './fields.js';

/**
 * JSON (or multipart) bodies of the v3/v4 account endpoints as GraphQL input. Absent keys stay
 * absent; values are coerced the way the original's serializer fields accept them.
 */

function text(field: string, value: unknown): string | null {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  throw errors.field(field, fieldMessages.string);
}

const FIELDS: [keyof AccountInput, string][] = [
  ['biography', 'biography'],
  ['displayName', 'display_name'],
  ['homepage', 'homepage'],
  ['location', 'location'],
  ['occupation', 'occupation'],
  ['username', 'username'],
];

/** `biography`, `display_name`, `homepage`, `location`, `occupation`, `username`; other keys are ignored. */
export function accountInputFromBody(body: unknown): AccountInput {
  const data = jsonObject(body);
  const input: AccountInput = {};
  for (const [key, field] of FIELDS) if (field in data) input[key] = text(field, data[field]);
  return input;
}

/** `{"<name>": bool}` pairs; null values are skipped (as the original does). */
export function notificationChangesFromBody(body: unknown): NotificationChange[] {
  const changes: NotificationChange[] = [];
  for (const [name, value] of Object.entries(jsonObject(body))) {
    if (value === null || value === undefined) continue;
    const enabled = drfBoolean(value);
    if (enabled === undefined || enabled === null) throw errors.field('enabled', fieldMessages.boolean);
    changes.push({ name, enabled });
  }
  return changes;
}

/** `token`, `hash` and `notification` of an unsubscribe link's request; other than strings: absent. */
export function unsubscribeFromBody(body: unknown): {
  token: string | null;
  hash: string | null;
  notification: string | null;
} {
  const data = jsonObject(body);
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { token: text(data.token), hash: text(data.hash), notification: text(data.notification) };
}

/** `email`, `username`, `idp_id`, `group` of super-create; a non-string is UNPROCESSABLE (422). */
export function superCreateInputFromBody(body: unknown): SuperCreateInput {
  const data = jsonObject(body);
  const input: SuperCreateInput = {};
  const fields: [keyof SuperCreateInput, string][] = [
    ['email', 'email'],
    ['username', 'username'],
    ['idpId', 'idp_id'],
    ['group', 'group'],
  ];
  for (const [key, field] of fields) {
    if (!(field in data) || data[field] === null) continue;
    const value = data[field];
    if (typeof value !== 'string') {
      throw new AppError(ErrorCode.UNPROCESSABLE, 'Invalid parameters.', {
        fields: { [field]: [fieldMessages.string] },
      });
    }
    input[key] = value;
  }
  return input;
}
