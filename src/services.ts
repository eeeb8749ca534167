import type { Config } from './config.js';
import type { Database } from './db/database.js';
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
}

export function createServices(config: Config, logger: Logger, keyring: Keyring, db: Database): Services {
  const apiKeys = new ApiKeysService(keyring.box('api-key-secrets'));
  const sessions = new SessionsService(keyring.signer('session-tokens'));
  const catalogue = new CatalogueService();
  const categories = new CategoriesService();
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
  };
}
