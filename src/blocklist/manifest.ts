import type { DomainManifest } from '../core/domain.js';
import { Block, BlocklistPublication, BlocklistRecord, BlocklistRequests } from './block.entity.js';
import { BlocklistResolver } from './blocklist.resolver.js';

export const blocklistManifest: DomainManifest = {
  name: 'blocklist',
  entities: [Block, BlocklistRecord, BlocklistPublication, BlocklistRequests],
  resolvers: [BlocklistResolver],
};
