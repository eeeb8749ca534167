import { Entity, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon, AddonRole } from './addon.entity.js';

/** An invitation to become an author of an add-on, until the invitee confirms or declines it. */
@Entity({ tableName: 'addon_pending_authors' })
@Unique({ properties: ['addon', 'user'] })
export class PendingAuthor {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'smallint', default: AddonRole.DEVELOPER })
  role: Opt<number> = AddonRole.DEVELOPER;

  @Property({ type: 'boolean', default: true })
  listed: Opt<boolean> = true;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
