import { Entity, Index, ManyToOne, OneToMany, PrimaryKey, Property, Collection, type Opt } from '@mikro-orm/core';
import { Addon } from '../catalogue/addon.entity.js';
import type { Translations } from '../core/i18n/translations.js';

/**
 * A primary hero shelf: one add-on (hosted, or `external`: shown by its homepage) with a gradient,
 * a featured image and an optional description (translations; the add-on's summary otherwise).
 */
@Entity({ tableName: 'hero_primary_shelves' })
@Index({ properties: ['enabled', 'position'] })
export class PrimaryShelf {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', index: true })
  addon!: Addon;

  @Property({ type: 'jsonb', nullable: true })
  description: Translations | null = null;

  /** An http(s) URL, or null. */
  @Property({ type: 'string', length: 255, nullable: true })
  featuredImage: string | null = null;

  /** The gradient's end colour, one of `SHELF_GRADIENTS`; required once enabled. */
  @Property({ type: 'string', length: 40, nullable: true })
  gradientColor: string | null = null;

  /** Shown as an external add-on (id, guid, homepage, name, type) instead of the add-on subset. */
  @Property({ type: 'boolean', default: false })
  isExternal: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  enabled: Opt<boolean> = false;

  /** Lists are in ascending position, then id. */
  @Property({ type: 'integer', default: 0 })
  position: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}

/** A secondary hero shelf: a headline, a description, an optional call to action and exactly 3 modules. */
@Entity({ tableName: 'hero_secondary_shelves' })
@Index({ properties: ['enabled', 'position'] })
export class SecondaryShelf {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'jsonb' })
  headline!: Translations;

  @Property({ type: 'jsonb' })
  description!: Translations;

  @Property({ type: 'string', length: 255, nullable: true })
  ctaUrl: string | null = null;

  @Property({ type: 'jsonb', nullable: true })
  ctaText: Translations | null = null;

  @Property({ type: 'boolean', default: false })
  enabled: Opt<boolean> = false;

  @Property({ type: 'integer', default: 0 })
  position: Opt<number> = 0;

  @OneToMany({
    entity: () => SecondaryShelfModule,
    mappedBy: 'shelf',
    orphanRemoval: true,
    orderBy: { position: 'asc' },
  })
  modules = new Collection<SecondaryShelfModule>(this);

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}

/** One of the 3 modules of a secondary shelf (`position` 0, 1, 2). */
@Entity({ tableName: 'hero_secondary_modules' })
@Index({ properties: ['shelf', 'position'] })
export class SecondaryShelfModule {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => SecondaryShelf, deleteRule: 'cascade' })
  shelf!: SecondaryShelf;

  @Property({ type: 'smallint' })
  position!: number;

  /** An http(s) URL. */
  @Property({ type: 'string', length: 255 })
  icon!: string;

  @Property({ type: 'jsonb' })
  description!: Translations;

  @Property({ type: 'string', length: 255, nullable: true })
  ctaUrl: string | null = null;

  @Property({ type: 'jsonb', nullable: true })
  ctaText: Translations | null = null;
}
