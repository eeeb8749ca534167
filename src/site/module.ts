import { defineModule } from '../core/module.js';
import { siteSettings } from './settings.js';
import { createSiteServices } from './services.js';
import { SiteSetting } from './site-setting.entity.js';
import { SiteResolver } from './site.resolver.js';
import { DebugResolver } from './debug.resolver.js';

/** The site's own state (read-only mode, notice) and the debugging helpers (the original's `services/`). */
export const siteModule = defineModule({
  name: 'site',
  dependsOn: [],
  settings: siteSettings,
  entities: [SiteSetting],
  resolvers: [SiteResolver, DebugResolver],
  services: createSiteServices,
});

export type { SiteServices } from './services.js';
