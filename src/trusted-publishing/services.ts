import type { Platform } from '../core/module.js';
import type { AuthServices } from '../auth/services.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { TokenExchangeService } from './token-exchange.service.js';
import { TrustedPublishersService } from './trusted-publishers.service.js';

/** The trusted-publishing module's services, from the platform and the modules it depends on. */
export function createTrustedPublishingServices(
  { config, siteUrl }: Platform,
  { auth, catalogue }: { readonly auth: AuthServices; readonly catalogue: CatalogueServices },
) {
  const options = {
    issuers: config.TRUSTED_PUBLISHING_ISSUERS,
    allowInsecureIssuers: config.TRUSTED_PUBLISHING_ALLOW_INSECURE_ISSUERS,
    defaultAudience: config.TRUSTED_PUBLISHING_AUDIENCE ?? siteUrl,
    keySeconds: config.TRUSTED_PUBLISHING_KEY_SECONDS,
  };
  return {
    trustedPublishers: new TrustedPublishersService(catalogue.catalogue, catalogue.lifecycle, options),
    tokenExchange: new TokenExchangeService(auth.apiKeys, catalogue.lifecycle, catalogue.catalogue, options),
  };
}

export type TrustedPublishingServices = ReturnType<typeof createTrustedPublishingServices>;
