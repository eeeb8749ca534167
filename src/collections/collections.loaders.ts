import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import { byKeys, defineLoader } from '../core/loaders.js';
import { lookupRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';

/** Collection authors (public account fields). */
export const collectionAuthorById = defineLoader<number, UserRecord | null>(
  'collectionAuthorById',
  async (ctx, ids) => {
    const rows = await lookupRows<JoinedUserRow>(
      ctx.em,
      `select ${JOINED_USER_COLUMNS} from users u where u.id = any(?::int[])`,
      [intArray(ids)],
    );
    const db = ctx.em.getPlatform();
    return byKeys(
      ids,
      rows.map((row): [number, UserRecord] => [row.user_id, toJoinedUserRecord(row, db)]),
      null,
    );
  },
);

/** Number of add-ons in each collection, whatever their status. */
export const addonCountByCollectionId = defineLoader<number, number>('addonCountByCollectionId', async (ctx, ids) => {
  const rows = await lookupRows<{ collection_id: number; count: number }>(
    ctx.em,
    `select collection_id, count(*)::int as count from collection_addons
      where collection_id = any(?::int[]) group by collection_id`,
    [intArray(ids)],
  );
  return byKeys(
    ids,
    rows.map((r): [number, number] => [r.collection_id, r.count]),
    0,
  );
});
