import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';

/** A browser/front-end session. Its token is a signed reference to this row, so it can be revoked. */
@Entity({ tableName: 'sessions' })
export class Session {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Index({ name: 'sessions_user_id_index' })
  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null = null;

  /** When it was last used (refreshed at most once a minute): the idle lifetime counts from it. */
  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  lastUsed: Opt<Date> = new Date();

  /** The sign-in proved a second factor (the provider's `amr`/`acr`). */
  @Property({ type: 'boolean', default: false })
  secondFactor: Opt<boolean> = false;

  /** How it began: a provider's name, `email-link`, `cli` or `super-create`. */
  @Property({ type: 'string', length: 64, nullable: true })
  origin: string | null = null;

  @Property({ type: 'string', length: 255, nullable: true })
  userAgent: string | null = null;

  @Property({ type: 'string', length: 45, nullable: true })
  ip: string | null = null;
}
