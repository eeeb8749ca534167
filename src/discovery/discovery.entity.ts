import { Entity, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { Addon } from '../catalogue/addon.entity.js';
import type { Translations } from '../core/i18n/translations.js';

/**
 * An add-on of the discovery pane with its editorial texts (translations). `position` (1 and up)
 * places it in the default edition, `positionChina` in the China edition; 0 leaves it out (it is
 * still editorial content).
 */
@Entity({ tableName: 'discovery_items' })
export class DiscoveryItem {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', unique: true })
  addon!: Addon;

  /** v3 heading template: `{addon_name}`, `{start_sub_heading}`, `{end_sub_heading}` are replaced. */
  @Property({ type: 'jsonb', nullable: true })
  customHeading: Translations | null = null;

  @Property({ type: 'jsonb', nullable: true })
  customDescription: Translations | null = null;

  @Property({ type: 'smallint', default: 0, index: true })
  position: Opt<number> = 0;

  @Property({ type: 'smallint', default: 0, index: true })
  positionChina: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()', onUpdate: () => new Date() })
  modified: Opt<Date> = new Date();
}
