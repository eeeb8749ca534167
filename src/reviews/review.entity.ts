import { Entity, Index, ManyToOne, OneToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';
import { Version } from '../catalogue/version.entity.js';
import { ReviewAction } from './review.enums.js';

/** One entry of a version's review history (a "review note"): decisions, requests, comments, replies. */
@Entity({ tableName: 'review_notes' })
@Index({ properties: ['version', 'id'] })
export class ReviewNote {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade', index: true })
  addon!: Addon;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade' })
  version!: Version;

  /** Who wrote it; null for the service itself (automatic approvals) and deleted users. */
  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null' })
  user: User | null = null;

  @Property({ type: 'smallint' })
  action!: ReviewAction;

  @Property({ type: 'text', default: '' })
  comments: Opt<string> = '';

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/**
 * The address a developer or reviewer replies to by mail (`reviewreply+<uuid>@<domain>`): one per
 * version and user, usable a limited number of times.
 */
@Entity({ tableName: 'review_reply_tokens' })
@Index({ properties: ['version', 'user'] })
export class ReviewReplyToken {
  /** 32 hex digits. */
  @PrimaryKey({ type: 'string', length: 32 })
  uuid!: string;

  @ManyToOne({ entity: () => Version, deleteRule: 'cascade' })
  version!: Version;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'integer', default: 0 })
  useCount: Opt<number> = 0;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();
}

/** Per add-on reviewer settings; absent means all false. */
@Entity({ tableName: 'addon_reviewer_flags' })
export class AddonReviewerFlags {
  @OneToOne({ entity: () => Addon, primary: true, deleteRule: 'cascade', owner: true })
  addon!: Addon;

  /** New versions wait for a human instead of being approved automatically. */
  @Property({ type: 'boolean', default: false })
  autoApprovalDisabled: Opt<boolean> = false;

  /** The same, until a human approves the latest version. */
  @Property({ type: 'boolean', default: false })
  autoApprovalDisabledUntilNextApproval: Opt<boolean> = false;

  @Property({ type: 'timestamptz', nullable: true })
  autoApprovalDelayedUntil: Date | null = null;

  @Property({ type: 'boolean', default: false })
  needsAdminCodeReview: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  needsAdminContentReview: Opt<boolean> = false;

  @Property({ type: 'boolean', default: false })
  needsAdminThemeReview: Opt<boolean> = false;
}
