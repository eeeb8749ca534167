import type { DomainManifest } from '../core/domain.js';
import { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';
import { WebhookDeliveryResolver, WebhooksResolver } from './webhooks.resolver.js';

export const webhooksManifest: DomainManifest = {
  name: 'webhooks',
  entities: [WebhookEndpoint, WebhookDelivery],
  resolvers: [WebhooksResolver, WebhookDeliveryResolver],
};
