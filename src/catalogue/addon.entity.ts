import {
  Collection,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  PrimaryKey,
  Property,
  Unique,
  type Opt,
} from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import type { Translations } from '../core/i18n/translations.js';
import { numberArray } from '../db/types.js';
import { AddonStatus, AddonType } from './catalogue.enums.js';
import type { Version } from './version.entity.js';
import { publicAddonSql } from './public.js';

const SEARCH_VECTOR_SQL = [
  `(((setweight(to_tsvector('english'::regconfig, addons_translations_text(name)), 'A'::"char")`,
  ` || setweight(to_tsvector('english'::regconfig, addons_translations_text(summary)), 'B'::"char"))`,
  ` || setweight(to_tsvector('english'::regconfig, addons_tags_text(tags)), 'C'::"char"))`,
  ` || setweight(to_tsvector('english'::regconfig, addons_translations_text(description)), 'D'::"char"))`,
].join('');

/** Partial search indexes cover the searchable add-ons only (`BASE` in src/search/postgres.query.ts). */
const SEARCHABLE = publicAddonSql(null);
/**
 * Rows that fit a B-tree tuple of the covering walk indexes (see `addons_search_walk_size` in the
 * SearchIndexes migration): with the search vector (relevance), with the names (autocomplete).
 */
const WALKABLE = 'addons_search_walk_size(search_vector, tags, null::text, category_ids) <= 2300';
const NAMES_FIT = 'addons_search_walk_size(null::tsvector, tags, search_name, category_ids) <= 2300';
const FILTER_COLUMNS = [
  'type',
  'promoted_category',
  'promoted_apps',
  'compat_apps',
  'compat_min',
  'compat_max',
  'platforms',
  'category_ids',
  'tags',
]
  .map((c) => `"${c}"`)
  .join(', ');
const WALK_INCLUDE = `${FILTER_COLUMNS}, "search_vector"`;
const NAMES_INCLUDE = `${FILTER_COLUMNS}, "search_name"`;
const searchIndex = (name: string, definition: string) =>
  Index({ name, expression: `create index "${name}" on "addons" ${definition}` });

/**
 * An add-on. Texts are translations (`{locale: text}`); `tags`, `categoryIds` and the
 * `compat*`/`platforms` arrays are denormalised from their sources (tags list, categories, current
 * version) so that search filters read one row; `CatalogueIndexer.refresh` keeps them current.
 */
@Entity({ tableName: 'addons' })
@Index({
  name: 'addons_guid_lower_index',
  expression: 'create index "addons_guid_lower_index" on "addons" (lower("guid"))',
})
// New add-ons' slugs (`uniqueSlug`: `slug like 'name-%'`) by prefix, whatever the collation: without
// it the lookup read every slug (17 ms at 100,000 add-ons, growing with the catalogue).
@Index({
  name: 'addons_slug_pattern',
  expression: 'create index "addons_slug_pattern" on "addons" ("slug" text_pattern_ops)',
})
// Search (PostgresSearchEngine). Full text with the selective array filters as extra keys.
@searchIndex(
  'addons_search_text',
  `using gin ("search_vector", "category_ids", "tags") with (fastupdate = off) where ${SEARCHABLE}`,
)
// Ranked text search (src/search/postgres.ranked.ts): matches in popularity order. A RUM index where
// the rum extension exists, else an empty stand-in of the same name (RankedSearchIndex migration).
@searchIndex(
  'addons_search_rum',
  `using rum ("search_vector" rum_tsvector_addon_ops, "average_daily_users") ` +
    `with (attach = 'average_daily_users', to = 'search_vector') where ${SEARCHABLE}`,
)
// The relevance walk: popularity order, read index-only (filters and vector in the tuple).
@searchIndex(
  'addons_search_walk',
  `("average_daily_users" desc, "id" desc) include (${WALK_INCLUDE}) where ${SEARCHABLE} and ${WALKABLE}`,
)
@searchIndex(
  'addons_search_walk_recommended',
  `("average_daily_users" desc, "id" desc) include (${WALK_INCLUDE}) ` +
    `where ${SEARCHABLE} and ${WALKABLE} and promoted_category = 2`,
)
// Rows too large for the walk index.
@searchIndex(
  'addons_search_walk_large',
  `("average_daily_users" desc, "id" desc) where ${SEARCHABLE} and not (${WALKABLE})`,
)
// Autocomplete: the names in popularity order, read index-only (no vector: ~6x denser).
@searchIndex(
  'addons_search_names',
  `("average_daily_users" desc, "id" desc) include (${NAMES_INCLUDE}) where ${SEARCHABLE} and ${NAMES_FIT}`,
)
@searchIndex(
  'addons_search_names_large',
  `("average_daily_users" desc, "id" desc) where ${SEARCHABLE} and not (${NAMES_FIT})`,
)
@searchIndex(
  'addons_search_text_large',
  `using gin ("search_vector") with (fastupdate = off) where ${SEARCHABLE} and not (${WALKABLE})`,
)
// Name matches (the name part of search_vector), to rank rare name matches of frequent terms.
@searchIndex(
  'addons_search_name_text',
  `using gin (to_tsvector('english'::regconfig, addons_translations_text("name"))) where ${SEARCHABLE}`,
)
// Exact names: one-locale names by their lower-cased text (queries are at most 100 characters), in
// popularity order; the other names (several locales, untrimmed) by each locale's key.
@searchIndex(
  'addons_search_name_sort',
  `(left("search_name", 101), "average_daily_users" desc, "id" desc) where ${SEARCHABLE}`,
)
@searchIndex(
  'addons_search_name_exact',
  `using gin (addons_name_keys("name")) where ${SEARCHABLE} and addons_name_keys("name") <> array["search_name"]`,
)
// Look-alike names (src/scanners/lookalike-names.ts): public add-ons sharing a key with a new name;
// the add-ons whose keys are still to be computed.
@searchIndex('addons_lookalike_keys', `using gin ("lookalike_keys") with (fastupdate = off) where ${SEARCHABLE}`)
@searchIndex('addons_lookalike_stale', `("id") where "lookalike_keys" is null`)
@searchIndex('addons_search_name_trgm', `using gin ("search_name" gin_trgm_ops) where ${SEARCHABLE}`)
@searchIndex('addons_search_facets', `using gin ("compat_apps", "platforms") where ${SEARCHABLE}`)
// Sort orders (no q, or q with few matches).
@searchIndex('addons_search_users', `("average_daily_users" desc, "id" desc) where ${SEARCHABLE}`)
@searchIndex('addons_search_created', `("created" desc, "id" desc) where ${SEARCHABLE}`)
@searchIndex('addons_search_downloads', `("weekly_downloads" desc, "id" desc) where ${SEARCHABLE}`)
@searchIndex('addons_search_hotness', `("hotness" desc, "id" desc) where ${SEARCHABLE}`)
@searchIndex('addons_search_rating', `("bayesian_rating" desc, "id" desc) where ${SEARCHABLE}`)
@searchIndex('addons_search_updated', `("last_updated" desc nulls last, "id" desc) where ${SEARCHABLE}`)
@searchIndex('addons_search_type', `("type", "average_daily_users" desc, "id" desc) where ${SEARCHABLE}`)
// sort=random (src/search/postgres.random.ts): walks in a fixed pseudo-random key, hashint4(id).
@searchIndex('addons_search_random', `(hashint4("id")) include ("id", "type", "compat_apps") where ${SEARCHABLE}`)
@searchIndex(
  'addons_search_random_promoted',
  `("promoted_category", hashint4("id")) include ("id", "type", "promoted_apps", "compat_apps") ` +
    `where ${SEARCHABLE} and promoted_category is not null`,
)
@searchIndex(
  'addons_search_promoted',
  `("promoted_category", "average_daily_users" desc, "id" desc) where ${SEARCHABLE} and promoted_category is not null`,
)
export class Addon {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 255, nullable: true })
  @Unique()
  guid: string | null = null;

  @Property({ type: 'string', length: 255 })
  @Unique()
  slug!: string;

  @Property({ type: 'smallint' })
  type: AddonType = AddonType.EXTENSION;

  @Property({ type: 'smallint', default: AddonStatus.INCOMPLETE })
  status: Opt<AddonStatus> = AddonStatus.INCOMPLETE;

  /** Disabled by its developer ("invisible"). */
  @Property({ type: 'boolean', default: false })
  disabledByUser: Opt<boolean> = false;

  @Property({ type: 'string', length: 10, default: 'en-US' })
  defaultLocale: Opt<string> = 'en-US';

  @Property({ type: 'jsonb', nullable: true })
  name: Translations | null = null;

  /**
   * The names' look-alike keys (src/scanners/lookalike-keys.ts), written with the name by the
   * scanners' ORM hook (`LookalikeNames`); null until computed (a trigger clears them when a write
   * changes the name without them).
   */
  @Property({ type: 'text[]', nullable: true, lazy: true, hidden: true })
  lookalikeKeys?: string[] | null;

  @Property({ type: 'jsonb', nullable: true })
  summary: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  description: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  developerComments: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  homepage: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  supportUrl: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  supportEmail: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true, lazy: true })
  eula: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true, lazy: true })
  privacyPolicy: Translations | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  contributionsUrl: string | null = null;

  @Property({ type: 'boolean', default: false })
  requiresPayment: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  isExperimental: Opt<boolean> = false;

  @Property({ type: 'boolean', default: true })
  publicStats: Opt<boolean> = true;

  @Property({ type: 'string', length: 25, nullable: true })
  iconType: string | null = null;

  /** Changes when the icon changes (cache-busting `?modified=` value). */
  @Property({ type: 'string', length: 8, nullable: true })
  iconHash: string | null = null;

  @Property({ type: 'integer', default: 0 })
  averageDailyUsers: Opt<number> = 0;

  @Property({ type: 'integer', default: 0 })
  weeklyDownloads: Opt<number> = 0;

  @Property({ type: 'real', default: 0 })
  hotness: Opt<number> = 0;

  @Property({ type: 'real', default: 0 })
  averageRating: Opt<number> = 0;

  @Property({ type: 'real', default: 0 })
  bayesianRating: Opt<number> = 0;

  @Property({ type: 'integer', default: 0 })
  totalRatings: Opt<number> = 0;

  @Property({ type: 'integer', default: 0 })
  textRatingsCount: Opt<number> = 0;

  /** The latest approved listed version (null: not listed / nothing approved). */
  @ManyToOne({ entity: 'Version', nullable: true, deleteRule: 'set null', index: true })
  currentVersion: Version | null = null;

  @Property({ type: 'smallint', nullable: true })
  promotedCategory: number | null = null;

  /** The locale a language pack or dictionary is for (its latest listed version's manifest). */
  @Property({ type: 'string', length: 35, nullable: true })
  targetLocale: string | null = null;

  @Property({ type: numberArray, columnType: 'smallint[]', default: '{}' })
  promotedApps: Opt<number[]> = [];

  @Property({ type: 'text[]', default: '{}' })
  tags: Opt<string[]> = [];

  @Property({ type: numberArray, columnType: 'int[]', default: '{}' })
  categoryIds: Opt<number[]> = [];

  /** Applications the current version is compatible with. */
  @Property({ type: numberArray, columnType: 'smallint[]', default: '{}' })
  compatApps: Opt<number[]> = [];

  /** Per application in `compatApps`, the min/max version_int of the current version. */
  @Property({ type: numberArray, columnType: 'bigint[]', default: '{}' })
  compatMin: Opt<number[]> = [];

  @Property({ type: numberArray, columnType: 'bigint[]', default: '{}' })
  compatMax: Opt<number[]> = [];

  /** Platforms of the current version's files. */
  @Property({ type: numberArray, columnType: 'smallint[]', default: '{}' })
  platforms: Opt<number[]> = [];

  /** Dominant colours of a static theme: `[{h, s, l, ratio}]`. */
  @Property({ type: 'jsonb', nullable: true })
  colors: { h: number; s: number; l: number; ratio: number }[] | null = null;

  /**
   * Full-text document: every locale of name (A), summary (B), tags (C), description (D).
   * Generated by PostgreSQL (written exactly as it normalises the expression, so the schema diff is clean).
   */
  @Property({
    columnType: 'tsvector',
    generated: `(${SEARCH_VECTOR_SQL}) stored`,
    lazy: true,
    hidden: true,
    nullable: true,
  })
  searchVector?: string;

  /** Lower-cased names in every locale, for trigram matching (autocomplete, typos). */
  @Property({
    columnType: 'text',
    generated: '(lower(addons_translations_text(name))) stored',
    lazy: true,
    hidden: true,
    nullable: true,
  })
  searchName?: string;

  @Property({ type: 'timestamptz', nullable: true })
  lastUpdated: Date | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();

  @OneToMany({ entity: () => AddonUser, mappedBy: 'addon', orderBy: { position: 'asc', id: 'asc' } })
  authors = new Collection<AddonUser>(this);
}

export const AddonRole = { OWNER: 5, DEVELOPER: 4 } as const;

/** An author of an add-on; only `listed` authors are shown, in `position` order. */
@Entity({ tableName: 'addon_users' })
@Unique({ properties: ['addon', 'user'] })
export class AddonUser {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'smallint', default: AddonRole.OWNER })
  role: Opt<number> = AddonRole.OWNER;

  @Property({ type: 'boolean', default: true })
  listed: Opt<boolean> = true;

  @Property({ type: 'integer', default: 0 })
  position: Opt<number> = 0;
}
