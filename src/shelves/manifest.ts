import type { DomainManifest } from '../core/domain.js';
import { HomeShelf } from './home-shelf.entity.js';
import { HomeShelvesResolver } from './home-shelves.resolver.js';
import { PrimaryShelf, SecondaryShelf, SecondaryShelfModule } from './shelf.entity.js';
import { ShelvesResolver } from './shelves.resolver.js';

/** Hero shelves (the original's `hero` app) and home page shelves (its `shelves` app), curated through `curation/`. */
export const shelvesManifest: DomainManifest = {
  name: 'shelves',
  entities: [PrimaryShelf, SecondaryShelf, SecondaryShelfModule, HomeShelf],
  resolvers: [ShelvesResolver, HomeShelvesResolver],
};
