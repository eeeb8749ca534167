import { defineModule } from '../core/module.js';
import { shelvesMigrations } from './migrations/index.js';
import { createShelvesServices } from './services.js';
import { catalogueModule } from '../catalogue/module.js';
import { collectionsModule } from '../collections/module.js';
import { curationModule } from '../curation/module.js';
import { searchModule } from '../search/module.js';
import { HomeShelf } from './home-shelf.entity.js';
import { HomeShelvesResolver } from './home-shelves.resolver.js';
import { PrimaryShelf, SecondaryShelf, SecondaryShelfModule } from './shelf.entity.js';
import { ShelvesResolver } from './shelves.resolver.js';

/** Hero shelves and home page shelves (searches and collections), and their curation (Admin:Curation). */
export const shelvesModule = defineModule({
  name: 'shelves',
  dependsOn: [catalogueModule, searchModule, collectionsModule, curationModule],
  entities: [PrimaryShelf, SecondaryShelf, SecondaryShelfModule, HomeShelf],
  resolvers: [ShelvesResolver, HomeShelvesResolver],
  migrations: shelvesMigrations,
  services: createShelvesServices,
});

export type { ShelvesServices } from './services.js';
