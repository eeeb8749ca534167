import { defineModule } from '../core/module.js';
import { trustedPublishingMigrations } from './migrations/index.js';
import { trustedPublishingSettings } from './settings.js';
import { createTrustedPublishingServices } from './services.js';
import { authModule } from '../auth/module.js';
import { catalogueModule } from '../catalogue/module.js';
import { ExchangedOidcToken, TrustedPublisher } from './trusted-publisher.entity.js';
import { TrustedPublishingResolver } from './trusted-publishing.resolver.js';

/**
 * Trusted publishing: the publishers owners trust (CI providers' OIDC issuers and claims), and the
 * exchange of their OIDC tokens for short-lived scoped API keys.
 */
export const trustedPublishingModule = defineModule({
  name: 'trusted-publishing',
  dependsOn: [authModule, catalogueModule],
  settings: trustedPublishingSettings,
  entities: [TrustedPublisher, ExchangedOidcToken],
  resolvers: [TrustedPublishingResolver],
  migrations: trustedPublishingMigrations,
  services: createTrustedPublishingServices,
});

export type { TrustedPublishingServices } from './services.js';
