import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import { addonName } from '../reviews/reviews.service.js';
import { AuthorRole } from './listing.types.js';
import { PendingAuthor } from './pending-author.entity.js';

/**
 * The `author-invitation-mail` job: mails an invitation still pending to its invitee (not to a
 * deleted account), with the developer hub's page where they accept or decline it.
 */
export class AuthorInvitationMails {
  constructor(
    private readonly fork: () => EntityManager,
    private readonly mailer: Mailer,
    private readonly settings: { siteUrl: string; serviceName: string },
  ) {}

  async mail(pendingId: number): Promise<void> {
    if (!Number.isSafeInteger(pendingId)) return;
    const pending = await this.fork().findOne(PendingAuthor, pendingId, { populate: ['addon', 'user'] });
    if (!pending || pending.user.deleted) return;
    await this.mailer.send({
      to: pending.user.email,
      ...mails.authorInvitation.render({
        addonName: addonName(pending.addon),
        role: pending.role === AuthorRole.OWNER ? 'owner' : 'developer',
        confirmUrl: `${this.settings.siteUrl}/developers/addon/${pending.addon.slug}/invitation`,
        serviceName: this.settings.serviceName,
      }),
    });
  }
}
