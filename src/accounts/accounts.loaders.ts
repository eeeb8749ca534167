import { byKeys, defineLoader } from '../core/loaders.js';
import { intArray } from '../db/sql.js';

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
