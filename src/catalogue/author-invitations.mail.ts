import type { EntityManager } from '@mikro-orm/postgresql';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import { addonName } from './addon-name.js';
import { AuthorRole } from './listing.types.js';
import { PendingAuthor } from './pending-author.entity.js';

/**
 * The `author-invitation-mail` job: mails an invitation still pending to its invitee (not to a
 * deleted account), with the v5 API's confirm and decline endpoints (the original links its developer
 * hub's invitation page; this service has none), as the reviewer subscription mail names its API.
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
    // No developer hub page here: the invitee answers through the v5 API (signed in, or with an API key).
    const base = `${this.settings.siteUrl}/api/v5/addons/addon/${pending.addon.id}/pending-authors/`;
    await this.mailer.send({
      to: pending.user.email,
      ...mails.authorInvitation.render({
        addonName: addonName(pending.addon),
        role: pending.role === AuthorRole.OWNER ? 'owner' : 'developer',
        confirmUrl: `${base}confirm/`,
        declineUrl: `${base}decline/`,
        serviceName: this.settings.serviceName,
      }),
    });
  }
}
