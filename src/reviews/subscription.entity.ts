import { Entity, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import { Channel } from '../catalogue/catalogue.enums.js';

/** A reviewer's wish to be mailed when a new version of an add-on arrives on a channel. */
@Entity({ tableName: 'reviewer_subscriptions' })
@Unique({ properties: ['addon', 'channel', 'user'] })
export class ReviewerSubscription {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  @Property({ type: 'smallint' })
  channel!: Channel;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
