import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../../accounts/user.entity.js';
import { Addon } from '../addon.entity.js';
import { Version } from '../version.entity.js';
import type { ActivityAction } from './lifecycle.enums.js';

/**
 * The audit log: one row per lifecycle change and review decision of an add-on. Written only by
 * `AddonLifecycle`, in the transaction of the change it records.
 */
@Entity({ tableName: 'addon_activity' })
@Index({ properties: ['addon', 'id'] })
@Index({ properties: ['user', 'id'] })
export class AddonActivity {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  @ManyToOne({ entity: () => Version, nullable: true, deleteRule: 'set null' })
  version: Version | null = null;

  /** Who did it; null for the service itself (automatic approvals, signing) and deleted users. */
  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  @Property({ type: 'string', length: 40 })
  action!: ActivityAction;

  /** The add-on's status before and after (equal when the change left it as it was). */
  @Property({ type: 'smallint' })
  fromStatus!: number;

  @Property({ type: 'smallint' })
  toStatus!: number;

  /** What else changed, e.g. `{"disabledByUser": [false, true]}`, `{"promoted": …}`, `{"guid": …}`. */
  @Property({ type: 'jsonb', nullable: true })
  details: Record<string, unknown> | null = null;

  @Property({ type: 'text', default: '' })
  comments: Opt<string> = '';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
