import { randomUUID } from 'node:crypto';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import type { Translations } from '../core/i18n/translations.js';

/** A user's collection of add-ons. The slug is unique per author; `name` and `description` are translations. */
@Entity({ tableName: 'collections' })
@Unique({ properties: ['author', 'slug'] })
@Index({ properties: ['author', 'modified'] })
export class Collection {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  /** 32 hex digits; install counting via the collection refers to it. */
  @Property({ type: 'string', length: 32, unique: true })
  uuid: Opt<string> = randomUUID().replace(/-/g, '');

  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  author!: User;

  @Property({ type: 'string', length: 30 })
  slug!: string;

  @Property({ type: 'jsonb', nullable: true })
  name: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  description: Translations | null = null;

  @Property({ type: 'string', length: 10, default: 'en-US' })
  defaultLocale: Opt<string> = 'en-US';

  /** Public: anyone with the URL may see it. */
  @Property({ type: 'boolean', default: true })
  listed: Opt<boolean> = true;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  /** Bumped by edits and by adding, editing and removing add-ons (lists are most recently updated first). */
  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}

/** An add-on in a collection, with the collector's notes (translations). */
@Entity({ tableName: 'collection_addons' })
@Unique({ properties: ['collection', 'addon'] })
export class CollectionAddon {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Collection, deleteRule: 'cascade' })
  collection!: Collection;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', index: true })
  addon!: Addon;

  @Property({ type: 'jsonb', nullable: true })
  notes: Translations | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
