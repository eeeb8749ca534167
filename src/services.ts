import type { Config } from './config.js';
import { join } from 'node:path';
import type { Database } from './db/database.js';
import { ListingService } from './catalogue/listing.service.js';
import { MeilisearchEngine } from './search/meilisearch.engine.js';
import { PostgresSearchEngine } from './search/postgres.engine.js';
import type { SearchEngine } from './search/search.port.js';
import { SearchService } from './search/search.service.js';
import { LocalStorage } from './storage/local.storage.js';
import type { Storage } from './storage/storage.port.js';
import type { Logger } from './core/logger.js';
import { OutgoingLinks } from './core/links.js';
import type { Keyring } from './core/secrets.js';
import { AccountsService } from './accounts/accounts.service.js';
import { ApiKeysService } from './auth/api-keys.service.js';
import { Authenticator } from './auth/authenticator.js';
import { SessionsService } from './auth/sessions.service.js';
import { SiteService } from './site/site.service.js';
import { CatalogueService } from './catalogue/catalogue.service.js';
import { CategoriesService } from './catalogue/categories.service.js';

/** The service singletons. Each holds the rules of one domain; all take a RequestContext or an EntityManager. */
export interface Services {
  readonly config: Config;
  readonly logger: Logger;
  readonly links: OutgoingLinks;
  readonly site: SiteService;
  readonly accounts: AccountsService;
  readonly apiKeys: ApiKeysService;
  readonly sessions: SessionsService;
  readonly authenticator: Authenticator;
  readonly catalogue: CatalogueService;
  readonly categories: CategoriesService;
  readonly search: SearchService;
  readonly listing: ListingService;
  readonly storage: Storage;
}

export function createServices(config: Config, logger: Logger, keyring: Keyring, db: Database): Services {
  const apiKeys = new ApiKeysService(keyring.box('api-key-secrets'));
  const sessions = new SessionsService(keyring.signer('session-tokens'));
  const catalogue = new CatalogueService();
  const categories = new CategoriesService();
  const storage = new LocalStorage(join(config.dataDir, 'media'));
  const search = new SearchService(
    createSearchEngine(config, db),
    categories,
    catalogue,
    config.SEARCH_MAX_RESULT_WINDOW,
  );
  return {
    config,
    logger,
    links: new OutgoingLinks(config.OUTGOING_URL, keyring.signer('outgoing-links')),
    site: new SiteService(),
    accounts: new AccountsService(apiKeys),
    apiKeys,
    sessions,
    authenticator: new Authenticator(apiKeys, sessions),
    catalogue,
    categories,
    search,
    listing: new ListingService(catalogue, categories, storage, search),
    storage,
  };
}

/** PostgreSQL full-text by default; Meilisearch when SEARCH_ENGINE=meilisearch. */
export function createSearchEngine(config: Config, db: Database): SearchEngine {
  if (config.SEARCH_ENGINE === 'meilisearch') {
    return new MeilisearchEngine(db, {
      url: config.MEILI_URL!,
      apiKey: config.MEILI_MASTER_KEY,
      indexName: config.MEILI_INDEX,
    });
  }
  return new PostgresSearchEngine(db);
}
