import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { AddonType, Channel } from '../catalogue/catalogue.enums.js';
import { AddonObjectType, VersionType } from '../catalogue/catalogue.types.js';
import { PageOf } from '../graphql/pagination.js';

export enum ReviewDecisionEnum {
  APPROVE = 'approve',
  REJECT = 'reject',
  REQUEST_INFORMATION = 'requestInformation',
  COMMENT = 'comment',
}
registerEnumType(ReviewDecisionEnum, {
  name: 'ReviewDecision',
  description: 'approve: sign and approve (a listed version makes its add-on public); reject: disable its files.',
});

@ObjectType('ReviewNote', { description: 'An entry of a version review history.' })
export class ReviewNoteType {
  @Field(() => Int)
  id!: number;

  @Field({
    description:
      'approved, rejected, review-requested, more-information-requested, super-review-requested, comment, review-note',
  })
  action!: string;

  @Field()
  actionLabel!: string;

  @Field()
  comments!: string;

  @Field({ description: 'The name shown for the writer.' })
  userName!: string;

  @Field()
  date!: Date;

  @Field({ description: 'Written by someone else after the viewer last wrote on this version.' })
  highlight!: boolean;

  @Field(() => Int)
  versionId!: number;
}

@ObjectType('ReviewNotePage')
export class ReviewNotePageType extends PageOf(ReviewNoteType) {}

@ObjectType('ReviewQueueItem')
export class ReviewQueueItemType {
  @Field(() => VersionType)
  version!: object;

  @Field(() => AddonObjectType)
  addon!: object;

  @Field({ description: 'When the version was submitted.' })
  waitingSince!: Date;

  @Field({
    description:
      'When its review is due: the earliest of its open reasons\' due dates (docs/api.md, "Review due dates").',
  })
  dueDate!: Date;

  @Field(() => [HumanReviewReasonType], { description: 'Why it waits for a human, the earliest due first.' })
  reasons!: HumanReviewReasonType[];
}

export enum HumanReviewReasonEnum {
  LISTED_SUBMISSION = 'listed_submission',
  AUTO_APPROVAL_DISABLED = 'auto_approval_disabled',
  SCANNER_ACTION = 'scanner_action',
  ABUSE_REPORTS = 'abuse_reports',
  ADMIN_FLAG = 'admin_flag',
  DEVELOPER_REPLY = 'developer_reply',
}
registerEnumType(HumanReviewReasonEnum, {
  name: 'HumanReviewReasonKind',
  description: 'Why a version waits for a human.',
  valuesConfig: {
    LISTED_SUBMISSION: { description: 'A new listed version (every listed version is reviewed).' },
    AUTO_APPROVAL_DISABLED: { description: "The add-on's reviewer flags stop automatic approval." },
    SCANNER_ACTION: { description: 'A scanner rule asked for a human.' },
    ABUSE_REPORTS: { description: 'Abuse reports about the add-on passed the threshold.' },
    ADMIN_FLAG: { description: 'An admin asked for a review.' },
    DEVELOPER_REPLY: { description: "The developer replied to a reviewer's request for information." },
  },
});

@ObjectType('HumanReviewReason', { description: 'One reason a version waits for a human, with its due date.' })
export class HumanReviewReasonType {
  @Field(() => HumanReviewReasonEnum)
  reason!: string;

  @Field(() => GraphQLJSONObject, {
    nullable: true,
    description: 'What it is about (the rule that matched, the reports counted…).',
  })
  details!: Record<string, unknown> | null;

  @Field()
  dueDate!: Date;

  @Field()
  created!: Date;
}

@ObjectType('QueueStanding', {
  description:
    "A version's place in its channel's review queue (the queue's order: due date, then submission) and an " +
    'estimate of its review from the last 28 days of human decisions in the channel.',
})
export class QueueStandingType {
  @Field(() => Int, { description: '1 for the next version reviewers take.' })
  position!: number;

  @Field(() => Int, { description: 'Versions waiting in the channel.' })
  total!: number;

  @Field()
  dueDate!: Date;

  @Field(() => Number, { description: 'Human decisions per day in the channel over the last 28 days.' })
  reviewsPerDay!: number;

  @Field(() => Date, {
    nullable: true,
    description: 'Now plus position / reviewsPerDay days; null while the channel has no recent decisions.',
  })
  estimatedReviewDate!: Date | null;
}

export enum ReviewQueueOrderEnum {
  DUE = 'due',
  OLDEST = 'oldest',
  NEWEST = 'newest',
  MOST_USERS = 'most_users',
}
registerEnumType(ReviewQueueOrderEnum, {
  name: 'ReviewQueueOrder',
  description: 'Order of the reviewer queue.',
  valuesConfig: {
    DUE: { description: 'The earliest due first (the default).' },
    OLDEST: { description: 'Waiting the longest first.' },
    NEWEST: { description: 'Most recently submitted first.' },
    MOST_USERS: { description: 'Add-ons with the most daily users first.' },
  },
});

@InputType('ReviewQueueFilter', { description: 'Narrows the reviewer queue; absent fields do not filter.' })
export class ReviewQueueFilterInput {
  @Field(() => AddonType, { nullable: true })
  addonType?: number | null;

  @Field(() => String, {
    nullable: true,
    description: "A part of the add-on's name (any language, up to 100 characters).",
  })
  name?: string | null;

  @Field(() => Boolean, { nullable: true })
  needsAdminCodeReview?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  needsAdminContentReview?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  needsAdminThemeReview?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  autoApprovalDisabled?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Promoted add-ons only (true), or only the others (false).' })
  promoted?: boolean | null;
}

@ObjectType('ReviewQueuePage', { description: 'Versions awaiting a human review.' })
export class ReviewQueuePageType extends PageOf(ReviewQueueItemType) {}

@ObjectType('ReviewMailReceipt')
export class ReviewMailReceiptType {
  @Field({ description: 'The configured validation key, echoed to the mail provider.' })
  validationKey!: string;

  @Field({ description: "The provider's validation probe (nothing was received)." })
  validation!: boolean;

  @Field({ description: 'A note was written from the message.' })
  accepted!: boolean;
}

@ObjectType('AddonReviewerFlags')
export class AddonReviewerFlagsType {
  @Field({ description: 'New versions go to the review queues instead of being approved automatically.' })
  autoApprovalDisabled!: boolean;

  @Field({ description: 'The same, until a human approves the latest version.' })
  autoApprovalDisabledUntilNextApproval!: boolean;

  @Field(() => Date, { nullable: true })
  autoApprovalDelayedUntil!: Date | null;

  @Field()
  needsAdminCodeReview!: boolean;

  @Field()
  needsAdminContentReview!: boolean;

  @Field()
  needsAdminThemeReview!: boolean;
}

@InputType('AddonReviewerFlagsInput', { description: 'Flags to change; omitted ones keep their value.' })
export class AddonReviewerFlagsInput {
  @Field(() => Boolean, { nullable: true })
  autoApprovalDisabled?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  autoApprovalDisabledUntilNextApproval?: boolean | null;

  @Field(() => Date, { nullable: true, description: 'null clears it.' })
  autoApprovalDelayedUntil?: Date | null;

  @Field(() => Boolean, { nullable: true })
  needsAdminCodeReview?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  needsAdminContentReview?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  needsAdminThemeReview?: boolean | null;
}

@ObjectType('ReviewerSubscription', {
  description: "A reviewer's subscription to an add-on's new versions on a channel.",
})
export class ReviewerSubscriptionType {
  @Field(() => Int)
  addonId!: number;

  @Field(() => Channel)
  channel!: Channel;

  @Field()
  created!: Date;
}
