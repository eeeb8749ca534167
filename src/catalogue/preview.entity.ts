import { Entity, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { Translations } from '../core/i18n/translations.js';
import { numberArray } from '../db/types.js';
import { Addon } from './addon.entity.js';

@Entity({ tableName: 'previews' })
export class Preview {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', index: true })
  addon!: Addon;

  @Property({ type: 'integer', default: 0 })
  position: Opt<number> = 0;

  @Property({ type: 'jsonb', nullable: true })
  caption: Translations | null = null;

  /** `[width, height]` of the full image and of the thumbnail. */
  @Property({ type: numberArray, columnType: 'int[]', default: '{}' })
  imageSize: Opt<number[]> = [];

  @Property({ type: numberArray, columnType: 'int[]', default: '{}' })
  thumbnailSize: Opt<number[]> = [];

  @Property({ type: 'string', length: 10, default: 'png' })
  imageFormat: Opt<string> = 'png';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  modified: Opt<Date> = new Date();
}

/** An add-on in the v3 featured list for an application (optionally for one locale only). */
@Entity({ tableName: 'featured_addons' })
export class FeaturedAddon {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', index: true })
  addon!: Addon;

  @Property({ type: 'smallint' })
  application!: number;

  @Property({ type: 'string', length: 10, nullable: true })
  locale: string | null = null;
}
