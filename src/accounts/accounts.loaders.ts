import { byKeys, defineLoader } from '../core/loaders.js';
import { selectRows, toDateOrNull, type DbTimestamp } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import type { UserPrivateFields } from './accounts.records.js';

/** Sorted union of the group rules of each user in `?` (an `intArray` of ids). */
export const permissionsByUserIdQuery = `
  select ug.user_id, array_agg(distinct rule order by rule) as rules
    from users_groups ug
    join groups g on g.id = ug.group_id
    cross join lateral unnest(g.rules) as rule
   where ug.user_id = any(?::int[])
   group by ug.user_id`;

/** Permissions of many users in one query. */
export const permissionsByUserId = defineLoader<number, string[]>('permissionsByUserId', async (ctx, ids) => {
  const rows: { user_id: number; rules: string[] | null }[] = await ctx.em
    .getConnection()
    .execute(permissionsByUserIdQuery, [intArray(ids)]);
  return byKeys(
    ids,
    rows.map((r) => [r.user_id, r.rules ?? []] as [number, string[]]),
    [],
  );
});

interface PrivateFieldsRow {
  id: number;
  email: string;
  deleted: boolean;
  last_login: DbTimestamp | null;
  last_login_ip: string | null;
  read_dev_agreement: DbTimestamp | null;
}

/** The private fields of accounts read as records (authors' users carry the public ones only). */
export const privateFieldsByUserId = defineLoader<number, UserPrivateFields | null>(
  'privateFieldsByUserId',
  async (ctx, ids) => {
    const rows = await selectRows<PrivateFieldsRow>(
      ctx.em,
      `select id, email, deleted, last_login, last_login_ip, read_dev_agreement from users where id = any(?::int[])`,
      [intArray(ids)],
    );
    const db = ctx.em.getPlatform();
    return byKeys(
      ids,
      rows.map((r): [number, UserPrivateFields] => [
        r.id,
        {
          email: r.email,
          deleted: r.deleted,
          lastLogin: toDateOrNull(db, r.last_login),
          lastLoginIp: r.last_login_ip,
          readDevAgreement: toDateOrNull(db, r.read_dev_agreement),
        },
      ]),
      null,
    );
  },
);
