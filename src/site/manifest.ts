import type { DomainManifest } from '../core/domain.js';
import { SiteSetting } from './site-setting.entity.js';
import { SiteResolver } from './site.resolver.js';
import { DebugResolver } from './debug.resolver.js';

export const siteManifest: DomainManifest = {
  name: 'site',
  entities: [SiteSetting],
  resolvers: [SiteResolver, DebugResolver],
};
