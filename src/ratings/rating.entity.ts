import {
  Entity,
  Index,
  ManyToOne,
  OneToOne,
  PrimaryKey,
  PrimaryKeyProp,
  Property,
  Unique,
  type Opt,
} from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import { Version } from '../catalogue/version.entity.js';

/**
 * A user's rating (v4) / review (v3) of an add-on version, or a developer's reply to one
 * (`replyTo` set; no score, no version). Deleting is soft. `isLatest` and `previousCount` are
 * denormalised per add-on and user over the non-deleted ratings (see ratings.aggregates.ts).
 *
 * Rows are read and written with SQL (ratings.records.ts): user text goes through the PGlite
 * semicolon workaround of src/db/rows.ts, which entity flushes cannot apply.
 */
@Entity({ tableName: 'ratings' })
@Index({ properties: ['addon', 'user'] })
@Index({ properties: ['addon', 'created'] })
@Index({ properties: ['user', 'created'] })
// One live rating per user and version; deleted ones and replies do not count.
@Unique({
  name: 'ratings_one_per_version',
  expression:
    'create unique index "ratings_one_per_version" on "ratings" ("version_id", "user_id") where reply_to_id is null and not deleted',
})
export class Rating {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  @ManyToOne({ entity: () => Version, nullable: true, deleteRule: 'cascade', index: true })
  version: Version | null = null;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  /** The rating this one replies to; at most one reply per rating. */
  @OneToOne({ entity: () => Rating, owner: true, nullable: true, deleteRule: 'cascade' })
  replyTo: Rating | null = null;

  /** 1 to 5; null for replies. */
  @Property({ type: 'smallint', nullable: true })
  score: number | null = null;

  @Property({ type: 'text', nullable: true })
  body: string | null = null;

  @Property({ type: 'string', length: 45, nullable: true })
  ipAddress: string | null = null;

  /** Waiting for a moderator: flagged by a user, or its text holds a link. */
  @Property({ type: 'boolean', default: false })
  editorReview: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  deleted: Opt<boolean> = false;

  /** The user's latest rating of the add-on. */
  @Property({ type: 'boolean', default: true })
  isLatest: Opt<boolean> = true;

  /** How many earlier ratings of the add-on the user has. */
  @Property({ type: 'integer', default: 0 })
  previousCount: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  modified: Opt<Date> = new Date();
}

/** A user's report of a rating to the moderators; one per rating and user (flagging again changes it). */
@Entity({ tableName: 'rating_flags' })
@Unique({ properties: ['rating', 'user'] })
export class RatingFlag {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Rating, deleteRule: 'cascade' })
  rating!: Rating;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade', index: true })
  user!: User;

  /** A `RatingFlagReason`. */
  @Property({ type: 'string', length: 64 })
  flag!: string;

  /** Only for the `other` reason. */
  @Property({ type: 'string', length: 100, default: '' })
  note: Opt<string> = '';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  modified: Opt<Date> = new Date();
}

/**
 * When a user last passed a throttle (`scope`: rating posts, replies). In the database so that
 * the limit holds across processes.
 */
@Entity({ tableName: 'rating_throttles' })
export class RatingThrottle {
  [PrimaryKeyProp]?: ['user', 'scope'];

  @ManyToOne({ entity: () => User, primary: true, deleteRule: 'cascade' })
  user!: User;

  @PrimaryKey({ type: 'string', length: 16 })
  scope!: string;

  @Property({ type: 'timestamptz' })
  lastAt!: Date;
}
