import type { DomainManifest } from './core/domain.js';
import { siteManifest } from './site/manifest.js';
import { accountsManifest } from './accounts/manifest.js';
import { authManifest } from './auth/manifest.js';
import { catalogueManifest } from './catalogue/manifest.js';
import { searchManifest } from './search/manifest.js';
import { blocklistManifest } from './blocklist/manifest.js';
import { signingManifest } from './signing/manifest.js';
import { reviewsManifest } from './reviews/manifest.js';
import { scannersManifest } from './scanners/manifest.js';
import { collectionsManifest } from './collections/manifest.js';
import { ratingsManifest } from './ratings/manifest.js';
import { abuseManifest } from './abuse/manifest.js';
import { curationManifest } from './curation/manifest.js';
import { shelvesManifest } from './shelves/manifest.js';
import { discoveryManifest } from './discovery/manifest.js';
import { webhooksManifest } from './webhooks/manifest.js';
import { trustedPublishingManifest } from './trusted-publishing/manifest.js';
import { signinManifest } from './signin/manifest.js';
import { updatesManifest } from './updates/manifest.js';
import { developersManifest } from './developers/manifest.js';

/**
 * Every domain (composition). A new domain adds `src/<domain>/manifest.ts` and its line here; its
 * services go in `src/services.ts`, its migrations in `src/migrations/index.ts`, its REST entries in
 * `rest-compat/routes/index.ts`.
 *
 * The order is deliberate: lower domains first (a domain's entities may reference those listed
 * before it), and the resolvers' order is the schema build's (schema.graphql is printed sorted, so
 * it does not change the file).
 */
export const domains: readonly DomainManifest[] = [
  siteManifest,
  accountsManifest,
  authManifest,
  catalogueManifest,
  searchManifest,
  blocklistManifest,
  signingManifest,
  reviewsManifest,
  scannersManifest,
  collectionsManifest,
  ratingsManifest,
  abuseManifest,
  curationManifest,
  shelvesManifest,
  discoveryManifest,
  webhooksManifest,
  trustedPublishingManifest,
  signinManifest,
  updatesManifest,
  developersManifest,
];

/** The domains' entities, given to the database port (`openDatabase`), which adds its own (cache tags). */
export const entities = domains.flatMap((domain) => domain.entities);

/** The tables the domains' migrations create that no entity maps (see `DomainManifest`). */
export const unmappedTables = domains.flatMap((domain) => domain.unmappedTables ?? []);

/** Every GraphQL resolver class, in the domains' order. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: Function[] = domains.flatMap((domain) => domain.resolvers);
