import { createHash } from 'node:crypto';
import { AddonType } from '../catalogue/catalogue.enums.js';
import { publicAddonSql } from '../catalogue/public.js';
import type { RequestContext } from '../core/context.js';
import { selectRows } from '../db/rows.js';

/** A valid telemetry client id: a sha256 hash as 64 hex digits. */
export function isClientId(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/i.test(value);
}

/** How many top candidates a client's recommendations are drawn from. */
const POOL = 12;

/**
 * Recommendations computed by the service itself (the original asked an outside recommender):
 * public extensions that are not among `seeds`, scored by how often they share a collection with
 * a seed or are rated 4+ by a user who rated a seed 4+, then by popularity (average daily users)
 * among add-ons of the seeds' categories. From the best `POOL`, the client id picks `count`
 * deterministically (the same id always gets the same ones), in score order.
 */
export async function recommendExtensions(
  ctx: RequestContext,
  clientId: string,
  seeds: readonly number[],
  count: number,
): Promise<number[]> {
  if (count <= 0 || !seeds.length) return [];
  const ids = await rankedExtensions(ctx, seeds, POOL);
  const rank = new Map(ids.map((id, i) => [id, i]));
  const draw = (id: number) => createHash('sha256').update(`${clientId.toLowerCase()}:${id}`).digest('hex');
  return [...ids]
    .sort((a, b) => (draw(a) < draw(b) ? -1 : 1))
    .slice(0, count)
    .sort((a, b) => rank.get(a)! - rank.get(b)!);
}

/**
 * The best `limit` public extensions for `seeds`, best first (see `recommendExtensions`): those
 * that share collections or 4+ ratings with a seed, by how often, then the most used of the seeds'
 * categories. None without a seed.
 */
export async function rankedExtensions(
  ctx: RequestContext,
  seeds: readonly number[],
  limit: number,
): Promise<number[]> {
  if (limit <= 0 || !seeds.length) return [];
  const rows = await selectRows<{ id: number }>(
    ctx.em,
    `with seeds as (select unnest(?::int[]) as id),
      together as (
        select ca2.addon_id as id, count(*)::int as score
          from collection_addons ca1
          join collection_addons ca2 on ca2.collection_id = ca1.collection_id and ca2.addon_id <> ca1.addon_id
         where ca1.addon_id in (select id from seeds)
         group by ca2.addon_id
        union all
        select r2.addon_id, count(distinct r2.user_id)::int
          from ratings r1
          join ratings r2 on r2.user_id = r1.user_id and r2.addon_id <> r1.addon_id
         where r1.addon_id in (select id from seeds)
           and r1.reply_to_id is null and not r1.deleted and r1.is_latest and r1.score >= 4
           and r2.reply_to_id is null and not r2.deleted and r2.is_latest and r2.score >= 4
         group by r2.addon_id
      ),
      scores as (select id, sum(score) as score from together group by id),
      categories as (select distinct unnest(category_ids) as id from addons where id in (select id from seeds))
    select a.id
      from addons a
      left join scores s on s.id = a.id
     where ${publicAddonSql('a')} and a.type = ?
       and a.id not in (select id from seeds)
       and (s.id is not null or a.category_ids && array(select id from categories))
     order by coalesce(s.score, 0) desc, a.average_daily_users desc, a.id
     limit ?`,
    [`{${seeds.join(',')}}`, AddonType.EXTENSION, limit],
  );
  return rows.map((row) => row.id);
}
