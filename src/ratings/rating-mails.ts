import type { EntityManager } from '@mikro-orm/postgresql';
import type { UnsubscribeCodes } from '../accounts/unsubscribe-codes.js';
import { selectRows } from '../db/rows.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';

/** Whether an account gets mail of a notification (`NotificationsService.wants`). */
export type WantsNotification = (em: EntityManager, userId: number, notification: string) => Promise<boolean>;

interface RatingRow {
  id: number;
  addon_id: number;
  user_id: number;
  reply_to_id: number | null;
  score: number | null;
  body: string | null;
  deleted: boolean;
  slug: string;
  name: Record<string, string> | string | null;
  default_locale: string;
  rater: string;
}

interface Recipient {
  id: number;
  email: string;
}

/**
 * The `rating-mail` job, queued with each new rating and each first reply (the original's rating
 * notification mails): a rating goes to the add-on's authors (not the rater) under the notification
 * `new_review`, a reply to the rating's author under `reply`, each to those who have not turned it
 * off, with the one-click unsubscribe link of that notification for their address.
 */
export class RatingMails {
  constructor(
    private readonly fork: () => EntityManager,
    private readonly mailer: Mailer,
    private readonly codes: UnsubscribeCodes,
    private readonly wants: WantsNotification,
    private readonly settings: { siteUrl: string; serviceName: string },
  ) {}

  async mail(ratingId: number): Promise<void> {
    if (!Number.isSafeInteger(ratingId)) return;
    const em = this.fork();
    const [rating] = await selectRows<RatingRow>(
      em,
      `select r.id, r.addon_id, r.user_id, r.reply_to_id, r.score, r.body, r.deleted, a.slug, a.name,
              a.default_locale, coalesce(nullif(u.display_name, ''), u.username) as rater
         from ratings r join addons a on a.id = r.addon_id join users u on u.id = r.user_id
        where r.id = ?`,
      [ratingId],
    );
    // Deleted meanwhile (or a moderator removed it): nothing to tell.
    if (!rating || rating.deleted) return;
    const addonName = nameOf(rating);
    const base = {
      addonName,
      serviceName: this.settings.serviceName,
      settingsUrl: `${this.settings.siteUrl}/users/edit`,
    };
    if (rating.reply_to_id !== null) {
      const [original] = await selectRows<Recipient & { deleted: boolean }>(
        em,
        `select u.id, u.email, r.deleted from ratings r join users u on u.id = r.user_id
          where r.id = ? and not u.deleted`,
        [rating.reply_to_id],
      );
      if (!original || original.deleted || !(await this.wants(em, original.id, 'reply'))) return;
      await this.mailer.send({
        to: original.email,
        ...mails.ratingReply.render({
          ...base,
          body: rating.body ?? '',
          ratingUrl: this.ratingUrl(rating.slug, rating.reply_to_id),
          unsubscribeUrl: this.codes.pageUrl(this.settings.siteUrl, original.email, 'reply'),
        }),
      });
      return;
    }
    const authors = await selectRows<Recipient>(
      em,
      `select u.id, u.email from addon_users au join users u on u.id = au.user_id
        where au.addon_id = ? and au.user_id <> ? and not u.deleted order by au.position, u.id`,
      [rating.addon_id, rating.user_id],
    );
    for (const author of authors) {
      if (!(await this.wants(em, author.id, 'new_review'))) continue;
      await this.mailer.send({
        to: author.email,
        ...mails.ratingNew.render({
          ...base,
          userName: rating.rater,
          score: String(rating.score ?? ''),
          body: rating.body || '(no text)',
          ratingUrl: this.ratingUrl(rating.slug, rating.id),
          unsubscribeUrl: this.codes.pageUrl(this.settings.siteUrl, author.email, 'new_review'),
        }),
      });
    }
  }

  /** The rating's page on the catalogue front-end. */
  private ratingUrl(slug: string, ratingId: number): string {
    return `${this.settings.siteUrl}/addon/${encodeURIComponent(slug)}/reviews/${ratingId}/`;
  }
}

function nameOf(row: RatingRow): string {
  const name = typeof row.name === 'string' ? (JSON.parse(row.name) as Record<string, string>) : (row.name ?? {});
  return name[row.default_locale] ?? Object.values(name)[0] ?? row.slug;
}
