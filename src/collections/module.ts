import { defineModule } from '../core/module.js';
import { collectionsMigrations } from './migrations/index.js';
import { collectionsSettings } from './settings.js';
import { createCollectionsServices } from './services.js';
import { accountsModule } from '../accounts/module.js';
import { catalogueModule } from '../catalogue/module.js';
import { Collection, CollectionAddon } from './collection.entity.js';
import { CollectionAddonsResolver, CollectionsResolver } from './collections.resolver.js';

/** Users' collections of add-ons, and the vendor account's collections curators manage. */
export const collectionsModule = defineModule({
  name: 'collections',
  dependsOn: [accountsModule, catalogueModule],
  settings: collectionsSettings,
  entities: [Collection, CollectionAddon],
  resolvers: [CollectionsResolver, CollectionAddonsResolver],
  migrations: collectionsMigrations,
  services: createCollectionsServices,
});

export type { CollectionsServices } from './services.js';
