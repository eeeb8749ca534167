import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Version } from '../catalogue/version.entity.js';

/** A ready-made text reviewers pick instead of typing a comment (managed by review admins). */
@Entity({ tableName: 'canned_responses' })
export class CannedResponse {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @Property({ type: 'string', length: 255 })
  title!: string;

  @Property({ type: 'text' })
  response!: string;

  /** Shown as is: Security, Privacy, Development practice, Other… */
  @Property({ type: 'string', length: 100, default: 'Other' })
  category: Opt<string> = 'Other';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/**
 * A reviewer's comment on a version's code, kept until their next decision on the version, which
 * turns the drafts into its comments.
 */
@Entity({ tableName: 'review_draft_comments' })
@Index({ properties: ['version', 'user'] })
export class DraftComment {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade' })
  version!: Version;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text', default: '' })
  comment: Opt<string> = '';

  /** Path from the package root. */
  @Property({ type: 'string', length: 1000, nullable: true })
  filename: string | null = null;

  @Property({ type: 'integer', nullable: true })
  lineno: number | null = null;

  @ManyToOne({ entity: () => CannedResponse, nullable: true, deleteRule: 'set null' })
  cannedResponse: CannedResponse | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}
