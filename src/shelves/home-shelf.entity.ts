import { Entity, Index, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import type { Translations } from '../core/i18n/translations.js';

/**
 * A home page shelf (the original's `shelves.Shelf`): a title, the add-ons of a search (`criteria`:
 * a search query string such as `?promoted=recommended&sort=random&type=extension`) or of one of
 * the vendor's collections (`criteria`: its slug), and an optional footer link.
 */
@Entity({ tableName: 'home_shelves' })
@Index({ properties: ['enabled', 'position'] })
export class HomeShelf {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'jsonb' })
  title!: Translations;

  /** `search` or `collections` (HOME_SHELF_ENDPOINTS). */
  @Property({ type: 'string', length: 20 })
  endpoint!: string;

  /** The add-on type the shelf shows (`extension` or `statictheme`), stored as its number. */
  @Property({ type: 'smallint' })
  addonType!: number;

  @Property({ type: 'string', length: 200 })
  criteria!: string;

  @Property({ type: 'jsonb', nullable: true })
  footerText: Translations | null = null;

  /** A site pathname (`/collections/…`) or an http(s) URL; null: none. */
  @Property({ type: 'string', length: 255, nullable: true })
  footerPathname: string | null = null;

  /** How many add-ons are shown; 0: the default for the type (4 extensions, 3 themes). */
  @Property({ type: 'smallint', default: 0 })
  addonCount: Opt<number> = 0;

  @Property({ type: 'boolean', default: false })
  enabled: Opt<boolean> = false;

  @Property({ type: 'integer', default: 0 })
  position: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}
