import { Entity, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** A notification preference the user set; unset ones take their default. */
@Entity({ tableName: 'user_notifications' })
@Unique({ properties: ['user', 'name'] })
export class UserNotification {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'string', length: 50 })
  name!: string;

  @Property({ type: 'boolean' })
  enabled!: boolean;
}
