import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';

/**
 * The curation log: one row per curation change (shelves, discovery items, editorial texts), with
 * the curator, what changed (before and after) and the add-on concerned, if any. The add-on
 * lifecycle's `addon_activity` records status changes only; curation does not change add-ons.
 */
@Entity({ tableName: 'curation_log' })
@Index({ properties: ['subjectType', 'subjectId', 'id'] })
export class CurationLogEntry {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  /** `created`, `updated`, `enabled`, `disabled`, `deleted`. */
  @Property({ type: 'string', length: 20 })
  action!: string;

  /** `primary_shelf`, `secondary_shelf`, `discovery_item`. */
  @Property({ type: 'string', length: 20 })
  subjectType!: string;

  @Property({ type: 'integer' })
  subjectId!: number;

  @ManyToOne({ entity: () => Addon, nullable: true, deleteRule: 'set null', index: true })
  addon: Addon | null = null;

  /** Changed fields: `{"field": [before, after]}`; the whole object on creation and deletion. */
  @Property({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
