import { Entity, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import type { Translations } from '../core/i18n/translations.js';

/** A category of one add-on type for one application (slugs repeat across applications). */
@Entity({ tableName: 'categories' })
@Unique({ properties: ['application', 'type', 'slug'] })
export class Category {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'smallint' })
  application!: number;

  @Property({ type: 'smallint' })
  type!: number;

  @Property({ type: 'string', length: 50 })
  slug!: string;

  @Property({ type: 'jsonb' })
  name!: Translations;

  @Property({ type: 'jsonb', nullable: true })
  description: Translations | null = null;

  @Property({ type: 'integer', default: 0 })
  weight: Opt<number> = 0;

  /** The catch-all "Other" category. */
  @Property({ type: 'boolean', default: false })
  misc: Opt<boolean> = false;
}
