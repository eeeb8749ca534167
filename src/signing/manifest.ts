import type { DomainManifest } from '../core/domain.js';
import { FileUpload } from './upload.entity.js';
import { SigningResolver } from './signing.resolver.js';
import { VersionSourceResolver } from './source.resolver.js';
import { VersionSource } from './version-source.entity.js';
import { RollbackResolver } from './rollback.resolver.js';
import { UploadListResolver } from './upload-list.resolver.js';
import { VersionEditResolver } from './version-edit.resolver.js';

export const signingManifest: DomainManifest = {
  name: 'signing',
  entities: [FileUpload, VersionSource],
  resolvers: [SigningResolver, RollbackResolver, VersionSourceResolver, VersionEditResolver, UploadListResolver],
};
