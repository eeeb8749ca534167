import type { DomainManifest } from '../core/domain.js';
import { DiscoveryItem } from './discovery.entity.js';
import { DiscoveryResolver } from './discovery.resolver.js';

/** The discovery pane: its items and editorial texts, and recommendations; curated through `curation/`. */
export const discoveryManifest: DomainManifest = {
  name: 'discovery',
  entities: [DiscoveryItem],
  resolvers: [DiscoveryResolver],
};
