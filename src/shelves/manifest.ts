import type { DomainManifest } from '../core/domain.js';
import { CurationLogEntry, PrimaryShelf, SecondaryShelf, SecondaryShelfModule } from './shelf.entity.js';
import { DiscoveryItem } from './discovery.entity.js';
import { CurationLogResolver, ShelvesResolver } from './shelves.resolver.js';
import { DiscoveryResolver } from './discovery.resolver.js';

/** Hero shelves, the discovery pane and their curation log. */
export const shelvesManifest: DomainManifest = {
  name: 'shelves',
  entities: [PrimaryShelf, SecondaryShelf, SecondaryShelfModule, CurationLogEntry, DiscoveryItem],
  resolvers: [ShelvesResolver, CurationLogResolver, DiscoveryResolver],
};
