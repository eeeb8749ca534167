import { accountStatsByUserId, type AccountStats } from '../accounts/accounts.loaders.js';
import { forgoSharing, recordCacheTag, type RequestContext } from '../core/context.js';
import { byKeys } from '../core/loaders.js';
import { lookupRows } from '../db/rows.js';
import { intArray } from '../db/sql.js';
import { notDeletedAddonSql } from './addon-access.js';
import { AddonType } from './catalogue.enums.js';
import { publicAddonSql } from './public.js';

/**
 * What the catalogue says about accounts (accounts declares the loader, `accountStatsByUserId`, and
 * reads it for profiles, visibility and deletion; the catalogue computes it over its tables).
 */

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
async function accountStats(ctx: RequestContext, ids: readonly number[]): Promise<(AccountStats | null)[]> {
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
}

accountStatsByUserId.implement(accountStats);
