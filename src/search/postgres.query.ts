import { AddonType, Platform, PromotedCategory } from '../catalogue/catalogue.enums.js';
import { publicAddonSql } from '../catalogue/public.js';
import { intArray, textArray } from '../db/sql.js';
import type { AddonSearchFilters, AddonSort, Range } from './search.port.js';

/**
 * SQL pieces of the PostgreSQL search adapter. Every statement reads `addons a`. Values become
 * `?` placeholders, which MikroORM inlines as quoted literals before sending the text: PostgreSQL
 * always plans with the real values (a custom plan), so it sees the search term's frequency.
 */
export interface Sql {
  readonly text: string;
  readonly params: readonly unknown[];
}

type Value = string | number | boolean | null;

/** A tagged template: interpolated `Sql` pieces are inlined, anything else becomes a parameter. */
export function sql(strings: TemplateStringsArray, ...values: (Sql | Value)[]): Sql {
  let text = strings[0];
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (isSql(value)) {
      text += value.text;
      params.push(...value.params);
    } else {
      text += '?';
      params.push(value);
    }
    text += strings[i + 1];
  });
  return { text, params };
}

export const raw = (text: string): Sql => ({ text, params: [] });

export function join(parts: readonly Sql[], separator: string): Sql {
  return { text: parts.map((p) => p.text).join(separator), params: parts.flatMap((p) => p.params) };
}

const isSql = (value: unknown): value is Sql => typeof value === 'object' && value !== null && 'text' in value;

/**
 * The base filter. Written exactly as the partial indexes' predicate (see `addon.entity.ts`) so that
 * the planner can use them.
 */
export const BASE = raw(publicAddonSql('a'));

/**
 * Rows small enough for the covering walk index (`addons_search_walk`, with the vector) and for
 * the names index (`addons_search_names`); the others are in the `*_large` indexes. Same text as
 * the indexes' predicates (see `addon.entity.ts` and `addons_search_walk_size` in the migration).
 */
const WALK_SIZE = 'addons_search_walk_size(a.search_vector, a.tags, null::text, a.category_ids)';
const NAMES_SIZE = 'addons_search_walk_size(null::tsvector, a.tags, a.search_name, a.category_ids)';
export const WALKABLE = raw(`${WALK_SIZE} <= 2300`);
export const NOT_WALKABLE = raw(`${WALK_SIZE} > 2300`);
export const NAMES_FIT = raw(`${NAMES_SIZE} <= 2300`);
export const NAMES_DO_NOT_FIT = raw(`${NAMES_SIZE} > 2300`);
/**
 * Filters readable from the covering indexes (`guid`, `colors`, `average_rating`, `created` and
 * `last_updated` are not there; `average_daily_users` is their key).
 */
export const indexOnlyFilters = (f: AddonSearchFilters) =>
  !f.guids?.length && !f.color && !f.ratings && !f.created && !f.updated;

/** The filters other than `q`, ANDed, the base filter included unless `base` is false. */
export function filterSql(f: AddonSearchFilters, base = true): Sql {
  const parts: Sql[] = base ? [BASE] : [raw('true')];
  if (f.types?.length) parts.push(sql`a.type = any(${intArray(f.types)}::smallint[])`);
  if (f.app !== undefined) {
    parts.push(sql`a.compat_apps @> ${intArray([f.app])}::smallint[]`);
    if (f.appVersion) {
      // compat_min/compat_max are parallel to compat_apps.
      const at = sql`array_position(a.compat_apps, ${f.app}::smallint)`;
      parts.push(sql`a.compat_min[${at}] <= ${f.appVersion.min}::bigint`);
      parts.push(sql`a.compat_max[${at}] >= ${f.appVersion.max}::bigint`);
    }
  }
  const authors: Sql[] = [];
  if (f.authorIds?.length) authors.push(sql`au.user_id = any(${intArray(f.authorIds)}::int[])`);
  if (f.authorUsernames?.length) {
    authors.push(
      sql`au.user_id in (select u.id from users u where u.username = any(${textArray(f.authorUsernames)}::text[]))`,
    );
  }
  if (authors.length) {
    parts.push(
      sql`exists (select 1 from addon_users au where au.addon_id = a.id and au.listed and (${join(authors, ' or ')}))`,
    );
  }
  if (f.categoryId !== undefined) parts.push(sql`a.category_ids @> ${intArray([f.categoryId])}::int[]`);
  if (f.excludeIds?.length) parts.push(sql`not (a.id = any(${intArray(f.excludeIds)}::int[]))`);
  if (f.excludeSlugs?.length) {
    // An init-plan array of ids: testable on the index-only walk (slug is not in the index).
    const slugs = textArray(f.excludeSlugs);
    parts.push(sql`not (a.id = any(array(select x.id from addons x where x.slug = any(${slugs}::text[]))))`);
  }
  if (f.guids?.length) {
    parts.push(sql`lower(a.guid) = any(${textArray(f.guids.map((g) => g.toLowerCase()))}::text[])`);
  }
  if (f.platform !== undefined) {
    parts.push(sql`a.platforms && ${intArray([f.platform, Platform.ALL])}::smallint[]`);
  }
  if (f.promoted?.length) {
    parts.push(sql`a.promoted_category is not null and a.promoted_category = any(${intArray(f.promoted)}::smallint[])`);
    if (f.app !== undefined) parts.push(sql`a.promoted_apps @> ${intArray([f.app])}::smallint[]`);
  }
  if (f.tags?.length) parts.push(sql`a.tags @> ${textArray(f.tags)}::text[]`);
  if (f.featured) {
    const conditions: Sql[] = [raw('fa.addon_id = a.id')];
    if (f.featured.app !== undefined) conditions.push(sql`fa.application = ${f.featured.app}`);
    if (f.featured.locale === null) conditions.push(sql`fa.locale is null`);
    else if (f.featured.locale) conditions.push(sql`(fa.locale is null or fa.locale = ${f.featured.locale})`);
    parts.push(sql`exists (select 1 from featured_addons fa where ${join(conditions, ' and ')})`);
  }
  if (f.color) parts.push(colorSql(f.color));
  if (f.users) parts.push(...rangeSql('a.average_daily_users', f.users, 'float8'));
  // `average_rating` is a real: bounds as reals, so that 4.2 equals the stored 4.2.
  if (f.ratings) parts.push(...rangeSql('a.average_rating', f.ratings, 'float4'));
  if (f.created) parts.push(...rangeSql('a.created', f.created, 'timestamptz'));
  // A null `last_updated` compares to nothing: never-updated add-ons match no bound.
  if (f.updated) parts.push(...rangeSql('a.last_updated', f.updated, 'timestamptz'));
  return join(parts, ' and ');
}

const RANGE_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** One comparison per bound of `range` on `column` (dates sent as ISO text). */
function rangeSql(
  column: string,
  range: Range<number> | Range<Date>,
  type: 'float4' | 'float8' | 'timestamptz',
): Sql[] {
  return (Object.keys(RANGE_OPERATORS) as (keyof typeof RANGE_OPERATORS)[]).flatMap((key) => {
    const value = range[key];
    if (value === undefined) return [];
    const param = value instanceof Date ? value.toISOString() : value;
    return [sql`${raw(column)} ${raw(RANGE_OPERATORS[key])} ${param}::${raw(type)}`];
  });
}

/** Hue distance (circular, degrees) and saturation/lightness distance (points) of a colour match. */
export const COLOR_TOLERANCE = { hue: 15, saturation: 20, lightness: 20 };

/**
 * A static theme with one of its dominant colours (`colors`: `[{h, s, l, ratio}]`, h 0-360, s and
 * l 0-100) close to the requested one. Approximate, like the original's ranges: the hue is compared
 * circularly, saturation and lightness linearly; the colour's share (`ratio`) is not considered.
 */
function colorSql(c: { h: number; s: number; l: number }): Sql {
  const { hue, saturation, lightness } = COLOR_TOLERANCE;
  return sql`a.type = ${AddonType.STATICTHEME}::smallint and jsonb_typeof(a.colors) = 'array' and exists (
    select 1 from jsonb_to_recordset(a.colors) as c(h float8, s float8, l float8)
    where least(abs(c.h - ${c.h}), 360 - abs(c.h - ${c.h})) <= ${hue}
      and abs(c.s - ${c.s}) <= ${saturation} and abs(c.l - ${c.l}) <= ${lightness})`;
}

/** The search text as the exact-name key: trimmed, inner whitespace collapsed (`addons_name_keys`). */
export const nameKey = (q: string) => q.trim().replace(/\s+/g, ' ').toLowerCase();

/** How `q` matches: the full-text query, optionally widened with typo variants. */
export interface TextMatch {
  q: string;
  /**
   * Typo variants as a `to_tsquery('simple', …)` text of indexed lexemes (each word's variants
   * ORed, words ANDed), or null.
   */
  fuzzy: string | null;
}

export const tsquery = (m: TextMatch) => sql`websearch_to_tsquery('english', ${m.q})`;
const fuzzyTsquery = (text: string) => sql`to_tsquery('simple', ${text})`;

/** Full-text match of `q` alone. */
export const exactFtsSql = (m: TextMatch) => sql`a.search_vector @@ ${tsquery(m)}`;

/** Full-text match, typo variants included: the GIN index condition. */
export function ftsSql(m: TextMatch): Sql {
  const exact = exactFtsSql(m);
  return m.fuzzy === null ? exact : sql`(${exact} or a.search_vector @@ ${fuzzyTsquery(m.fuzzy)})`;
}

/**
 * Exact name match (queries are at most 100 characters, so comparing 101 is comparing all), as
 * index conditions: a one-locale name is its `search_name` (`addons_search_name_sort`, in
 * popularity order); other names have a key per locale (`addons_search_name_exact`).
 */
export const exactSingleNameSql = (m: TextMatch) => sql`left(a.search_name, 101) = ${nameKey(m.q)}`;
export const exactOtherNameSql = (m: TextMatch) =>
  sql`(addons_name_keys(a.name) <> array[a.search_name] and addons_name_keys(a.name) @> ${textArray([nameKey(m.q)])}::text[])`;
export const exactNameSql = (m: TextMatch) => sql`(${exactSingleNameSql(m)} or ${exactOtherNameSql(m)})`;

/**
 * The same test on one row, cheap: most names are one locale (`search_name` is then the name);
 * names of several locales are split only when they contain `q`.
 */
const isExactNameSql = (m: TextMatch) => {
  const key = nameKey(m.q);
  return sql`(a.search_name = ${key} or (strpos(a.search_name, ${key}) > 0
    and addons_name_keys(a.name) @> ${textArray([key])}::text[]))`;
};

/** Name match (all of `q` in a name): the `addons_search_name_text` index condition. */
export const nameFtsSql = (m: TextMatch) =>
  sql`to_tsvector('english'::regconfig, addons_translations_text(a.name)) @@ ${tsquery(m)}`;

/** Everything `q` matches: full text, typo variants, exact names. */
export const matchSql = (m: TextMatch) => sql`(${ftsSql(m)} or ${exactNameSql(m)})`;

/** ts_rank of one name (A) occurrence: text scores are divided by it and capped at 1. */
const NAME_RANK = 1 / 1.64493406685;
/** Text score added for an exact name match (the original boosted it 100 against ~20 for name matches). */
export const EXACT_NAME_BONUS = 4;
/** Relevance factor of promoted "recommended" add-ons (the original weighted them 5 against 4). */
export const RECOMMENDED_FACTOR = 1.25;
/**
 * Highest text score of a single-term match outside the name: positions are ordered name (A),
 * summary (B), tags (C), description (D), so ts_rank is at most the first weight, B's 0.4.
 */
export const NON_NAME_TEXT = 0.4 / NAME_RANK;
/** Weight of a typo-variant match against a real match of the same field. */
export const FUZZY_WEIGHT = 0.5;

/**
 * Text score in [0, 1]: 1 for a name match, 0.4 summary, 0.2 tags, 0.1 description (ts_rank's
 * default weights, normalised by one name occurrence and capped; a bounded text score is what makes
 * the popularity-ordered walk provably exact). Typo variants count half, by field.
 */
function textScoreSql(m: TextMatch): Sql {
  const rank = sql`least(ts_rank('{0.1,0.2,0.4,1}'::float4[], a.search_vector, ${tsquery(m)}) / ${raw(String(NAME_RANK))}, 1)`;
  if (m.fuzzy === null) return rank;
  const weighted = (weights: string) => m.fuzzy!.replace(/[\p{L}\p{N}]+/gu, (lexeme) => `${lexeme}:${weights}`);
  const fuzzy = sql`case when a.search_vector @@ ${fuzzyTsquery(weighted('A'))} then 1
    when a.search_vector @@ ${fuzzyTsquery(weighted('BC'))} then 0.4
    when a.search_vector @@ ${fuzzyTsquery(m.fuzzy)} then 0.1 else 0 end * ${raw(String(FUZZY_WEIGHT))}`;
  return sql`greatest(${rank}, ${fuzzy})`;
}

/** Popularity factor: log10(ADU + 2), as the original's `log2p`, times the recommended factor. */
const popularitySql = raw(
  `log((a.average_daily_users + 2)::float8) * case when a.promoted_category = ${PromotedCategory.RECOMMENDED} then ${RECOMMENDED_FACTOR} else 1 end`,
);

/**
 * Relevance: (text + exact-name bonus) x popularity. The bonus is tested per row (`test`), given to
 * every row (`all`, for rows selected as exact names) or left out (`none`: the covering walk index
 * has no `name`; exact-name matches are then scored by another branch).
 */
export function scoreSql(m: TextMatch, exact: 'test' | 'all' | 'none' = 'test'): Sql {
  const bonus = raw(String(EXACT_NAME_BONUS));
  const text =
    exact === 'none'
      ? textScoreSql(m)
      : exact === 'all'
        ? sql`(${textScoreSql(m)} + ${bonus})`
        : sql`(${textScoreSql(m)} + case when ${isExactNameSql(m)} then ${bonus} else 0 end)`;
  return sql`(${text} * ${popularitySql})::float8`;
}

/**
 * An upper bound of `scoreSql(m)` read without the vector (whose decompression and ranking is most
 * of a search's cost): the text score is at most 1 for a row whose names match (`nameMatch`), and
 * for others at most NON_NAME_TEXT when `q` is one term (the name is the only A-weight field), else 1.
 */
export function scoreBoundSql(m: TextMatch, nameMatch: Sql): Sql {
  const other = sql`case when numnode(${tsquery(m)}) = 1 then ${raw(String(NON_NAME_TEXT))} else 1 end`;
  return sql`((case when ${isExactNameSql(m)} then ${raw(String(1 + EXACT_NAME_BONUS))} when ${nameMatch} then 1
    else ${other} end) * ${popularitySql})::float8`;
}

/** Popularity factor of a non-recommended add-on (its score for a text score of 1). */
export const popularity = (averageDailyUsers: number) => Math.log10(averageDailyUsers + 2);

/** Lowest ADU at which an add-on with this text score and factor could still reach `score`. */
export const minUsersFor = (score: number, maxText: number) =>
  Math.max(0, Math.floor(10 ** (score / (maxText * RECOMMENDED_FACTOR)) - 2));

/** One ORDER BY key per sort (all descending); `relevance` is the `score` output column. */
export function sortKey(sort: AddonSort): { expr: string; dir: string } {
  switch (sort) {
    case 'created':
      return { expr: 'a.created', dir: 'desc' };
    case 'downloads':
      return { expr: 'a.weekly_downloads', dir: 'desc' };
    case 'hotness':
      return { expr: 'a.hotness', dir: 'desc' };
    case 'rating':
      return { expr: 'a.bayesian_rating', dir: 'desc' };
    case 'updated':
      return { expr: 'a.last_updated', dir: 'desc nulls last' };
    case 'users':
      return { expr: 'a.average_daily_users', dir: 'desc' };
    case 'recommended':
      return { expr: `(a.promoted_category is not distinct from ${PromotedCategory.RECOMMENDED})`, dir: 'desc' };
    case 'random':
      return { expr: 'random()', dir: '' };
    case 'relevance':
      return { expr: 'score', dir: 'desc' };
  }
}

/** ORDER BY list for these sorts, ties by id (descending). */
export const orderBy = (sort: readonly AddonSort[]) =>
  raw([...sort.map(sortKey).map((k) => `${k.expr} ${k.dir}`.trim()), 'a.id desc'].join(', '));

/** LIKE pattern text with `\`, `%` and `_` escaped. */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, '\\$&');
