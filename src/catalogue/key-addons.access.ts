import { defineObjectRule } from '../access/object-rules.js';
import type { UserRecord } from '../accounts/accounts.records.js';
import type { RequestContext } from '../core/context.js';
import type { FieldErrorCollector } from '../core/field-errors.js';
import { selectRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import { AddonStatus } from './catalogue.enums.js';

/** At most this many add-ons in one key's scope. */
export const MAX_KEY_ADDONS = 100;

export const keyAddonMessages = {
  notAuthor: (ids: readonly string[]) => `You are not an author of these add-ons: ${ids.join(', ')}.`,
  emptyList: 'Give at least one, or leave the field out for no limit.',
  tooManyAddons: `At most ${MAX_KEY_ADDONS} add-ons.`,
} as const;

/**
 * A scoped key names only add-ons (not deleted) the caller authors: their ids, sorted; null (no
 * limit) when none are given; a field error (`addons`) names the others.
 */
export const keyAddons = defineObjectRule(
  'apiKey.addons',
  'add-ons the caller authors',
  async (
    ctx: RequestContext,
    user: Pick<UserRecord, 'id'>,
    given: readonly string[] | null,
    problems: FieldErrorCollector,
  ): Promise<number[] | null> => {
    if (given === null) return null;
    if (!given.length) return problems.add('addons', keyAddonMessages.emptyList);
    if (given.length > MAX_KEY_ADDONS) return problems.add('addons', keyAddonMessages.tooManyAddons);
    const ids = [...new Set(given.map((id) => (/^[1-9][0-9]{0,9}$/.test(id) ? Number(id) : NaN)))];
    const valid = ids.filter((id) => Number.isSafeInteger(id) && id <= 2_147_483_647);
    const rows = valid.length
      ? await selectRows<{ addon_id: number }>(
          ctx.em,
          `select au.addon_id from addon_users au join addons a on a.id = au.addon_id
           where au.user_id = ? and au.addon_id = any(?::int[]) and a.status <> ?`,
          [user.id, intArray(valid), AddonStatus.DELETED],
        )
      : [];
    const authored = new Set(rows.map((r) => Number(r.addon_id)));
    const foreign = given.filter((id) => !authored.has(Number(id)) || !/^[1-9][0-9]{0,9}$/.test(id));
    if (foreign.length) return problems.add('addons', keyAddonMessages.notAuthor([...new Set(foreign)]));
    return [...authored].sort((a, b) => a - b);
  },
);
