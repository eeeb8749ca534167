import type { DomainManifest } from '../core/domain.js';
import { PrimaryShelf, SecondaryShelf, SecondaryShelfModule } from './shelf.entity.js';
import { ShelvesResolver } from './shelves.resolver.js';

/** Hero shelves (the original's `hero` app), curated through `curation/`. */
export const shelvesManifest: DomainManifest = {
  name: 'shelves',
  entities: [PrimaryShelf, SecondaryShelf, SecondaryShelfModule],
  resolvers: [ShelvesResolver],
};
