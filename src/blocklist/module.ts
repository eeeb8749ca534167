import { defineModule } from '../core/module.js';
import { remoteSettingsRouter } from './remote-settings.http.js';
import { blocklistMigrations } from './migrations/index.js';
import { blocklistSettings } from './settings.js';
import { createBlocklistServices } from './services.js';
import { catalogueModule } from '../catalogue/module.js';
import { Block, BlocklistPublication, BlocklistRecord, BlocklistRequests } from './block.entity.js';
import { BlocklistResolver } from './blocklist.resolver.js';

declare module '../jobs/service-jobs.js' {
  interface ServiceJobs {
    /**
     * Publishes the blocklist (`BlocklistPublisher`): a stash of what changed, or new base filters.
     * Send with `requestPublication` (`src/blocklist/publication-requests.ts`): what to publish is
     * read from the database, not the payload (`force`: jobs queued before the requests table).
     */
    'publish-blocklist': { force?: boolean };
    /** After signings (`BlocklistService.publishAfterSigning`, delayed): queues a `publish-blocklist`. */
    'publish-blocklist-later': Record<string, never>;
  }
}

/**
 * Blocks of add-on ids (Blocklist:Create, Blocklist:Submit, Reviews:Admin) and their publication
 * for browsers (filter cascades and stashes).
 */
export const blocklistModule = defineModule({
  name: 'blocklist',
  dependsOn: [catalogueModule],
  settings: blocklistSettings,
  entities: [Block, BlocklistRecord, BlocklistPublication, BlocklistRequests],
  resolvers: [BlocklistResolver],
  migrations: blocklistMigrations,
  services: createBlocklistServices,
  jobs: {
    // One publication runs at a time, and one waits: changes made meanwhile are all picked up by it.
    'publish-blocklist': {
      queue: { policy: 'stately', retryLimit: 5, retryDelaySeconds: 30, retryBackoff: true, expireInSeconds: 15 * 60 },
      handle: (services) => (job) => services.blocklistPublisher.publish({ force: job.data.force }),
    },
    // One delayed job waits: the signings until it runs make one publication.
    'publish-blocklist-later': {
      queue: { policy: 'stately', retryLimit: 5, retryDelaySeconds: 30, expireInSeconds: 60 },
      handle: (services) => () => services.blocklist.publishDelayed(),
    },
  },
  // The blocklist as Firefox reads it (Remote Settings' /v1/), readable cross-origin.
  http: ({ blocklistPublisher }, { db, config }) => [
    { method: 'use', path: '/v1', cors: true, handler: remoteSettingsRouter(blocklistPublisher, db, config.SITE_URL) },
  ],
  subscribers: ({ blocklist }, _deps, { config }) => [
    {
      name: 'blocklist',
      on: ['version.signed'],
      handle: () => blocklist.publishAfterSigning(config.BLOCKLIST_PUBLISH_DELAY_SECONDS),
    },
  ],
});

export type { BlocklistServices } from './services.js';
