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

const SEARCH_VECTOR_SQL = [
  `(((setweight(to_tsvector('english'::regconfig, addons_translations_text(name)), 'A'::"char")`,
  ` || setweight(to_tsvector('english'::regconfig, addons_translations_text(summary)), 'B'::"char"))`,
  ` || setweight(to_tsvector('english'::regconfig, addons_tags_text(tags)), 'C'::"char"))`,
  ` || setweight(to_tsvector('english'::regconfig, addons_translations_text(description)), 'D'::"char"))`,
].join('');

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
