import type { EntityManager } from '@mikro-orm/postgresql';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { FieldErrorCollector } from '../core/field-errors.js';
import { lengthProblem, truncateText } from '../core/text-limits.js';
import { selectRows } from '../db/rows.js';
import { checkWebhookUrl, UrlRefused, type UrlPolicy } from './url-guard.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.js';
import { WEBHOOKS_TEXT_LIMITS } from './text-limits.js';

/**
 * The checks of an endpoint's input, each adding its field's message to `fields` and answering the
 * clean value (null: absent or refused). `required`: on creation; on update an absent field is kept.
 */

export function checkDescription(fields: FieldErrorCollector, input: string | null | undefined): string | null {
  if (input === undefined || input === null) return null;
  if (fields.check('description', lengthProblem(input, WEBHOOKS_TEXT_LIMITS.webhookDescription))) return null;
  return input.trim();
}

/**
 * The URL's form, then its host's addresses (a DNS lookup of up to 3 s): callers run it before
 * opening their transaction.
 */
export async function checkUrl(
  fields: FieldErrorCollector,
  input: string | null | undefined,
  required: boolean,
  policy: UrlPolicy,
): Promise<string | null> {
  if (input === undefined || input === null || input.trim() === '') {
    if (required || input !== undefined) fields.add('url', 'This field is required.');
    return null;
  }
  if (fields.check('url', lengthProblem(input, WEBHOOKS_TEXT_LIMITS.webhookUrl))) return null;
  try {
    return (await checkWebhookUrl(input.trim(), policy)).url.href;
  } catch (error) {
    if (!(error instanceof UrlRefused)) throw error;
    fields.add('url', error.message);
    return null;
  }
}

export function checkEvents(
  fields: FieldErrorCollector,
  input: string[] | null | undefined,
  required: boolean,
): string[] | null {
  if (input === undefined || (input === null && !required)) return null;
  if (!input?.length) return fields.add('events', 'Choose at least one event.');
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  const unknown = input.filter((name) => !known.has(name));
  if (unknown.length) {
    const shown = unknown.slice(0, 3).map((name) => JSON.stringify(truncateText(name, 64)));
    return fields.add('events', `Unknown event: ${shown.join(', ')}. Known: ${WEBHOOK_EVENT_TYPES.join(', ')}.`);
  }
  return WEBHOOK_EVENT_TYPES.filter((name) => input.includes(name));
}

/** The add-on an endpoint is limited to: one `ownerId` authors (else the field error of an unknown one). */
export async function checkAddon(
  em: EntityManager,
  fields: FieldErrorCollector,
  ownerId: number,
  addonId: number | null,
): Promise<number | null> {
  if (addonId === null) return null;
  const [row] = await selectRows<{ id: number }>(
    em,
    `select a.id from addons a join addon_users au on au.addon_id = a.id and au.user_id = ?
        where a.id = ? and a.status <> ?`,
    [ownerId, addonId, AddonStatus.DELETED],
  );
  if (!row) return fields.add('addon', 'No add-on of yours has this id.');
  return row.id;
}
