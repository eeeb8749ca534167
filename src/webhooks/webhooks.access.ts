import { defineObjectRule } from '../access/object-rules.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { WebhookEndpoint } from './webhook.entity.js';

/**
 * Who may do what with webhook endpoints and their deliveries: the object rule the endpoint
 * operations declare, called by the services where they load the endpoint.
 */

/** The signed-in caller, owner of the endpoints they manage (401 anonymous). */
export function webhookOwnerId(ctx: RequestContext): number {
  const id = ctx.viewer.userId;
  if (id === null) throw errors.notAuthenticated();
  return id;
}

/**
 * An endpoint is seen and changed by its owner only: anyone else's is unknown (404), as an endpoint
 * that does not exist; answers the endpoint.
 */
export const ownWebhookEndpoint = defineObjectRule(
  'webhookEndpoint.own',
  'the endpoint’s owner (anyone else: NOT_FOUND)',
  (ctx: RequestContext, endpoint: WebhookEndpoint | null): WebhookEndpoint => {
    const ownerId = webhookOwnerId(ctx);
    if (!endpoint || endpoint.owner.id !== ownerId) throw errors.notFound();
    return endpoint;
  },
);
