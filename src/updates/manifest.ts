import type { DomainManifest } from '../core/domain.js';

/**
 * The update service browsers ask about installed add-ons (`UpdatesService`, served at `/update/`
 * by `updates.http.ts`): no tables and no GraphQL operations of its own; it reads the catalogue and
 * the blocklist. Above `catalogue` and `blocklist`.
 */
export const updatesManifest: DomainManifest = {
  name: 'updates',
  entities: [],
  resolvers: [],
};
