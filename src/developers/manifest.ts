import type { DomainManifest } from '../core/domain.js';
import { SupportTicket } from './support-ticket.entity.js';
import { SupportResolver } from './support.resolver.js';

/**
 * Developers' support tickets (the original's internal `developers/support`): kept, and mailed to
 * the operator's support address. (The developer agreement is the accounts domain's.)
 */
export const developersManifest: DomainManifest = {
  name: 'developers',
  entities: [SupportTicket],
  resolvers: [SupportResolver],
};
