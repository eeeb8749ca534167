import type { Platform } from '../core/module.js';
import { SiteService } from './site.service.js';
import { DebugHelpers } from './debug-helpers.js';

/** The site module's services, from the platform. */
export function createSiteServices({ config }: Platform) {
  return {
    site: new SiteService(),
    debug: new DebugHelpers({ clientInfoEnabled: config.CLIENT_INFO_ENABLED }),
  };
}

export type SiteServices = ReturnType<typeof createSiteServices>;
