import { defineModule } from '../core/module.js';
import { developersMigrations } from './migrations/index.js';
import { developersSettings } from './settings.js';
import { createDevelopersServices } from './services.js';
import { SupportTicket } from './support-ticket.entity.js';
import { SupportResolver } from './support.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /** Mails a developer's support ticket to the support address (`SupportService.mail`), once. */
    'support-ticket-mail': { ticketId: number };
  }
}

/** Developers' support tickets: kept, and mailed to the support address. */
export const developersModule = defineModule({
  name: 'developers',
  dependsOn: [],
  settings: developersSettings,
  entities: [SupportTicket],
  resolvers: [SupportResolver],
  migrations: developersMigrations,
  services: createDevelopersServices,
  jobs: {
    'support-ticket-mail': {
      queue: { retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true },
      handle: (services) => (job) => services.support.mail(job.data.ticketId),
    },
  },
});

export type { DevelopersServices } from './services.js';
