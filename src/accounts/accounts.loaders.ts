import { byKeys, defineLoader, defineLoaderPort } from '../core/loaders.js';
import { lookupRows, toDateOrNull, type DbTimestamp } from '../db/rows.js';
import { executeSql, intArray } from '../db/sql.js';
import type { UserPrivateFields } from './accounts.records.js';

/** The sorted union of the group rules of the user whose id is `userId` (an SQL expression), or null. */
export const permissionsOfUserSql = (userId: string) => `(
  select array_agg(distinct rule order by rule)
    from users_groups ug
    join groups g on g.id = ug.group_id
    cross join lateral unnest(g.rules) as rule
   where ug.user_id = ${userId})`;

/** Sorted union of the group rules of each user in `?` (an `intArray` of ids); null for none. */
export const permissionsByUserIdQuery = `
  select u.id as user_id, ${permissionsOfUserSql('u.id')} as rules from unnest(?::int[]) as u(id)`;

/** Permissions of many users in one query. */
export const permissionsByUserId = defineLoader<number, string[]>('permissionsByUserId', async (ctx, ids) => {
  // In the operation's transaction when there is one (PGlite's one connection is the transaction's).
  const rows = await executeSql<{ user_id: number; rules: string[] | null }[]>(ctx.em, permissionsByUserIdQuery, [
    intArray(ids),
  ]);
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
    const rows = await lookupRows<PrivateFieldsRow>(
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

/** What the catalogue says about an account, and its picture. */
export interface AccountStats {
  readonly numAddonsListed: number;
  readonly averageAddonRating: number;
  readonly isAddonDeveloper: boolean;
  readonly isArtist: boolean;
  /** Has any add-on (not deleted), listed or not: developer notifications apply. */
  readonly isDeveloper: boolean;
  /** The account was deleted: nobody sees its profile any more. */
  readonly deleted: boolean;
  readonly pictureType: string | null;
  readonly pictureHash: string | null;
}

/**
 * Each user's statistics (`AccountStats`, null for an unknown id), batched per request: declared
 * here, computed by the catalogue over its tables (src/catalogue/account-stats.ts), one statement.
 */
export const accountStatsByUserId = defineLoaderPort<number, AccountStats | null>('accountStatsByUserId');
