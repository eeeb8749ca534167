import type { Platform } from '../core/module.js';
import { SupportService } from './support.service.js';

/** The developers module's services, from the platform. */
export function createDevelopersServices({ config, db, jobs, mailer, siteUrl, siteHost }: Platform) {
  return {
    support: new SupportService(
      () => db.fork(),
      mailer,
      (em, ticketId) => jobs.send('support-ticket-mail', { ticketId }, { transaction: em }),
      {
        ticketsPerDay: config.SUPPORT_TICKETS_PER_DAY,
        supportEmail: config.SUPPORT_EMAIL ?? `support@${siteHost}`,
        siteUrl,
        serviceName: config.VENDOR_NAME,
      },
    ),
  };
}

export type DevelopersServices = ReturnType<typeof createDevelopersServices>;
