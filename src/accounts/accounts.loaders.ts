import { AddonType } from '../catalogue/catalogue.enums.js';
import { notDeletedAddonSql } from '../catalogue/addon-access.js';
import { publicAddonSql } from '../catalogue/public.js';
import { forgoSharing, recordCacheTag } from '../core/context.js';
import { byKeys, defineLoader } from '../core/loaders.js';
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

interface AccountStatsRow {
  id: number;
  num_addons_listed: number;
  average_addon_rating: number | string | null;
  is_addon_developer: boolean;
  is_artist: boolean;
  is_developer: boolean;
  deleted: boolean;
  picture_type: string | null;
  picture_hash: string | null;
}

/** Themes for `is_artist` (personas and static themes); other types make an add-on developer. */
const THEME_TYPES = `(${AddonType.PERSONA}, ${AddonType.STATICTHEME})`;

/**
 * The most add-ons whose tags a user's statistics record; an author of more makes the answer
 * unshareable (`forgoSharing`) rather than carry that many tags.
 */
const STATS_TAGS_MAX = 100;

/**
 * Listed public add-ons of each user (as a listed author), their average rating, and the picture: one
 * query. While recording cache tags, the statement also reads the versions of what vouches for it:
 * `u:<id>` (the account's public columns, its deletion and its authorships: the ProfileCacheTags
 * migration) and `a:<id>` of each add-on it is a listed author of (status, type, average rating).
 */
export const accountStatsByUserId = defineLoader<number, AccountStats | null>(
  'accountStatsByUserId',
  async (ctx, ids) => {
    const recording = ctx.cacheTags !== undefined;
    const rows = await lookupRows<AccountStatsRow & { tag_versions?: [string, string | null][] | null }>(
      ctx.em,
      `select s.*${
        recording
          ? `, (select json_agg(json_build_array(t.tag, ct.version::text))
                  from unnest(array['u:' || s.id] || s.listed[1:${STATS_TAGS_MAX + 1}]) as t(tag)
                  left join cache_tags ct on ct.tag = t.tag) as tag_versions`
          : ''
      }
       from (select u.id, u.deleted, u.picture_type, u.picture_hash,
            count(a.id)::int as num_addons_listed,
            coalesce(avg(a.average_rating), 0)::float8 as average_addon_rating,
            coalesce(bool_or(a.type not in ${THEME_TYPES}), false) as is_addon_developer,
            coalesce(bool_or(a.type in ${THEME_TYPES}), false) as is_artist,
            exists (select 1 from addon_users d join addons da on da.id = d.addon_id
                     where d.user_id = u.id and ${notDeletedAddonSql('da')}) as is_developer,
            array_remove(array_agg('a:' || au.addon_id), null) as listed
       from users u
       left join addon_users au on au.user_id = u.id and au.listed
       left join addons a on a.id = au.addon_id and ${publicAddonSql('a')}
      where u.id = any(?::int[])
      group by u.id) s`,
      [intArray(ids)],
    );
    for (const row of rows) {
      if (!row.tag_versions) continue;
      if (row.tag_versions.length > STATS_TAGS_MAX + 1) forgoSharing(ctx);
      for (const [tag, version] of row.tag_versions) recordCacheTag(ctx, tag, version);
    }
    return byKeys(
      ids,
      rows.map((r): [number, AccountStats] => [
        r.id,
        {
          numAddonsListed: Number(r.num_addons_listed),
          averageAddonRating: Number(r.average_addon_rating ?? 0),
          isAddonDeveloper: r.is_addon_developer,
          isArtist: r.is_artist,
          isDeveloper: r.is_developer,
          deleted: r.deleted,
          pictureType: r.picture_type,
          pictureHash: r.picture_hash,
        },
      ]),
      null,
    );
  },
);
