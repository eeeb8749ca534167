import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../accounts/user.entity.js';
import { hasPermission, Permission } from '../access/permissions.js';
import { AddonUser } from '../catalogue/addon.entity.js';
import { isUserAuthor } from '../catalogue/addon-access.js';
import { addonName } from '../catalogue/addon-name.js';
import { Channel } from '../catalogue/catalogue.enums.js';
import type { Version } from '../catalogue/version.entity.js';
import { truncateText } from '../core/text-limits.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import { flagForHumanReview, HumanReviewReason } from './human-review.js';
import { ReviewAction } from './review.enums.js';
import { ReviewNote, ReviewReplyToken } from './review.entity.js';
import { REVIEWS_TEXT_LIMITS } from './text-limits.js';

/** How many replies one address may carry (the original's MAX_TOKEN_USE_COUNT). */
const MAX_TOKEN_USES = 100;
const COMMENTS_MAX = REVIEWS_TEXT_LIMITS.reviewComments;

/** The authors' mail for each decision's note (`review.decided` is published for these only). */
const DECISION_MAILS = new Map<ReviewAction, typeof mails.reviewApproved>([
  [ReviewAction.APPROVED, mails.reviewApproved],
  [ReviewAction.REJECTED, mails.reviewRejected],
  [ReviewAction.MORE_INFORMATION_REQUESTED, mails.reviewInformationRequested],
  [ReviewAction.COMMENT, mails.reviewComment],
]);

/** Inbound mail, as the mail provider posts it (`POST /api/{v}/activity/mail/`). */
export interface InboundMail {
  to: string[];
  textBody: string;
}

/** What the mail of review notes needs of the reviews' settings. */
export interface ReviewMailSettings {
  /** Name shown for notes written by the service itself (automatic approvals). */
  serviceName: string;
  /** Domain of `reviewreply+<uuid>@<domain>`. */
  replyDomain: string;
  siteUrl: string;
}

/**
 * Review notes by mail: each decision's note mailed to the add-on's authors with a reply address
 * of their own, and the replies to those addresses, which become notes of the version.
 */
export class ReviewReplies {
  constructor(
    private readonly mailer: Mailer,
    private readonly settings: ReviewMailSettings,
  ) {}

  /**
   * A reply by mail: the first `reviewreply+<uuid>@<domain>` recipient names the version and the
   * writer. Unknown, used-up or stale addresses and writers who lost access are discarded.
   */
  async receiveMail(em: EntityManager, mail: InboundMail): Promise<ReviewNote | null> {
    const uuid = mail.to.map((address) => this.replyToken(address)).find((t) => t !== null);
    if (!uuid) return null;
    const token = await em.findOne(ReviewReplyToken, uuid, { populate: ['version', 'version.addon', 'user'] });
    if (!token || token.useCount >= MAX_TOKEN_USES || token.version.deleted) return null;
    const { version, user } = token;
    const author = await isUserAuthor(em, version.addon.id, user.id);
    if (!author && !(await this.userReviews(em, user, version.channel))) return null;
    // A huge message is cut before its quoted part is looked for; the note keeps at most COMMENTS_MAX.
    const text = truncateText(
      stripQuotedReply(truncateText(mail.textBody, REVIEWS_TEXT_LIMITS.mailBody)),
      COMMENTS_MAX,
    );
    if (!text) return null;
    token.useCount += 1;
    const note = em.create(ReviewNote, {
      addon: version.addon,
      version,
      user,
      action: ReviewAction.REVIEW_NOTE,
      comments: text,
    });
    await em.flush();
    if (author) await developerReplied(em, version, user.id);
    return note;
  }

  private replyToken(address: string): string | null {
    const domain = this.settings.replyDomain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const match = new RegExp(`^reviewreply\\+([0-9a-f]{32})@${domain}$`, 'i').exec(address.trim());
    return match ? match[1].toLowerCase() : null;
  }

  private async userReviews(em: EntityManager, user: User, channel: Channel): Promise<boolean> {
    await em.populate(user, ['groups']);
    const rules = user.groups.getItems().flatMap((g) => g.rules);
    const required = channel === Channel.UNLISTED ? Permission.ADDONS_REVIEW_UNLISTED : Permission.ADDONS_REVIEW;
    return hasPermission(rules, required);
  }

  /**
   * The `review.decided` subscriber: each author gets the decision's note by mail, with their own
   * reply address. Runs after the decision commits, from the job queue (retried until sent).
   */
  async mailDecision(em: EntityManager, noteId: number): Promise<void> {
    const note = await em.findOne(ReviewNote, noteId, { populate: ['version', 'version.addon'] });
    const template = note && DECISION_MAILS.get(note.action);
    if (!note || !template) return;
    const version = note.version;
    const authors = await em.find(AddonUser, { addon: version.addon }, { populate: ['user'] });
    for (const { user } of authors) {
      const token = await this.tokenFor(em, version, user);
      await this.mailer.send({
        to: user.email,
        replyTo: `reviewreply+${token}@${this.settings.replyDomain}`,
        ...template.render({
          addonName: addonName(version.addon),
          version: version.version,
          comments: note.comments || '(none)',
          versionUrl: `${this.settings.siteUrl}/developers/addon/${version.addon.slug}/versions/${version.id}`,
          serviceName: this.settings.serviceName,
        }),
      });
    }
  }

  private async tokenFor(em: EntityManager, version: Version, user: User): Promise<string> {
    const existing = await em.findOne(ReviewReplyToken, { version, user, useCount: { $lt: MAX_TOKEN_USES } });
    if (existing) return existing.uuid;
    const token = em.create(ReviewReplyToken, { uuid: randomUUID().replaceAll('-', ''), version, user });
    await em.flush();
    return token.uuid;
  }
}

/**
 * An author's note on a version still waiting for a human, after a reviewer asked for more
 * information: the reply is a reason of its own (due sooner than a routine review).
 */
export async function developerReplied(em: EntityManager, version: Version, userId: number): Promise<void> {
  if (!(await isUserAuthor(em, version.addon.id, userId))) return;
  const [last] = await em.find(
    ReviewNote,
    { version, action: { $ne: ReviewAction.REVIEW_NOTE } },
    { orderBy: { id: 'desc' }, limit: 1 },
  );
  if (last?.action !== ReviewAction.MORE_INFORMATION_REQUESTED) return;
  await flagForHumanReview(em, version.id, HumanReviewReason.DEVELOPER_REPLY, { noteAfter: last.id });
}

/** The reply without the quoted message below it ("> …" lines, "On … wrote:"). */
export function stripQuotedReply(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const end = lines.findIndex((line, i) => /^\s*>/.test(line) || (/^On .+wrote:\s*$/.test(line) && i > 0));
  return (end < 0 ? lines : lines.slice(0, end)).join('\n').trim();
}
