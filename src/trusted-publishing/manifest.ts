import type { DomainManifest } from '../core/domain.js';
import { ExchangedOidcToken, TrustedPublisher } from './trusted-publisher.entity.js';
import { TrustedPublishingResolver } from './trusted-publishing.resolver.js';

export const trustedPublishingManifest: DomainManifest = {
  name: 'trusted-publishing',
  entities: [TrustedPublisher, ExchangedOidcToken],
  resolvers: [TrustedPublishingResolver],
};
