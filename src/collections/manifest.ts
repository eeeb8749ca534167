import type { DomainManifest } from '../core/domain.js';
import { Collection, CollectionAddon } from './collection.entity.js';
import { CollectionAddonsResolver, CollectionsResolver } from './collections.resolver.js';

export const collectionsManifest: DomainManifest = {
  name: 'collections',
  entities: [Collection, CollectionAddon],
  resolvers: [CollectionsResolver, CollectionAddonsResolver],
};
