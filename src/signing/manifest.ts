import type { DomainManifest } from '../core/domain.js';
import { FileUpload } from './upload.entity.js';
import { SigningResolver } from './signing.resolver.js';

export const signingManifest: DomainManifest = {
  name: 'signing',
  entities: [FileUpload],
  resolvers: [SigningResolver],
};
