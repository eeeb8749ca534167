import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { Requires, SIGN_IN, objectRule, SECOND_FACTOR } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import { OwnTransactions } from '../graphql/transactions.js';
import type { WebhooksServices } from './services.js';
import type { WebhookDelivery, WebhookEndpoint } from './webhook.entity.js';
import {
  WebhookDeliveryPageType,
  WebhookDeliveryType,
  WebhookEndpointInput,
  WebhookEndpointType,
  WebhookEndpointWithSecretType,
} from './webhooks.types.js';
import { ownWebhookEndpoint } from './webhooks.access.js';

/** The services check it where they load the endpoint (`WebhookEndpointsService.own`, a delivery's). */
const OWNER = objectRule(ownWebhookEndpoint);

/**
 * Developers' webhook endpoints (WebhookEndpointsService holds their rules, WebhookDeliveriesService
 * those of their deliveries). Sessions only: an endpoint receives every event of its owner's add-ons
 * and its secret is shown on creation, so API keys (made for CI uploads, often stored in CI
 * settings) cannot redirect or read that stream.
 */
@Resolver(() => WebhookEndpointType)
export class WebhooksResolver {
  constructor(private readonly services: WebhooksServices) {}

  @Accepts('session')
  @Requires(SIGN_IN)
  @Query(() => [WebhookEndpointType], { description: 'Your webhook endpoints (secrets are never shown again).' })
  webhookEndpoints(@Ctx() ctx: RequestContext) {
    return this.services.webhookEndpoints.list(ctx);
  }

  @Accepts('session')
  @Requires(SECOND_FACTOR, SIGN_IN)
  @OwnTransactions('slow external work', 'resolves the URL’s host (up to 3 s) before the endpoint is written')
  @Mutation(() => WebhookEndpointWithSecretType, {
    description:
      'Registers an endpoint (at most 10 per user, 5 per add-on) and returns its secret, once. The URL must ' +
      'resolve to public addresses only.',
  })
  createWebhookEndpoint(@Arg('input') input: WebhookEndpointInput, @Ctx() ctx: RequestContext) {
    return this.services.webhookEndpoints.create(ctx, { ...input });
  }

  @Accepts('session')
  @Requires(SECOND_FACTOR, SIGN_IN, OWNER)
  @OwnTransactions('slow external work', 'resolves the URL’s host (up to 3 s) before the endpoint is written')
  @Mutation(() => WebhookEndpointType, { description: 'Changes an endpoint’s URL, events, description or state.' })
  updateWebhookEndpoint(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: WebhookEndpointInput,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.webhookEndpoints.update(ctx, id, { ...input });
  }

  @Accepts('session')
  @Requires(SIGN_IN, OWNER)
  @Mutation(() => Boolean, { description: 'Deletes an endpoint and its delivery log.' })
  deleteWebhookEndpoint(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.webhookEndpoints.remove(ctx, id);
  }

  @Accepts('session')
  @Requires(SECOND_FACTOR, SIGN_IN, OWNER)
  @Mutation(() => WebhookEndpointWithSecretType, {
    description: 'Replaces an endpoint’s secret and returns the new one, once; the old one stops at once.',
  })
  rotateWebhookSecret(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.webhookEndpoints.rotateSecret(ctx, id);
  }

  @Accepts('session')
  @Requires(SIGN_IN, OWNER)
  @Query(() => WebhookDeliveryPageType, { description: 'An endpoint’s delivery log, newest first.' })
  webhookDeliveries(
    @Arg('endpoint', () => Int) endpoint: number,
    @Ctx() ctx: RequestContext,
    @Arg('first', () => Int, { nullable: true, description: 'Default 20, at most 50.' }) first?: number | null,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
  ) {
    return this.services.webhookDeliveries.deliveries(ctx, endpoint, first, after);
  }

  @Accepts('session')
  @Requires(SIGN_IN, OWNER)
  @Mutation(() => WebhookEndpointType, {
    description: 'Lifts a suspension (`suspendedAt`): the deliveries that waited are sent again, in order.',
  })
  resumeWebhookEndpoint(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.webhookDeliveries.resume(ctx, id);
  }

  @Accepts('session')
  @Requires(SIGN_IN, OWNER)
  @Mutation(() => WebhookDeliveryType, {
    description:
      'Sends a `webhook.test` event to the endpoint (a few per hour: THROTTLED past it; CONFLICT when the ' +
      'endpoint is suspended or has too many deliveries waiting).',
  })
  sendTestWebhookEvent(@Arg('endpoint', () => Int) endpoint: number, @Ctx() ctx: RequestContext) {
    return this.services.webhookDeliveries.sendTest(ctx, endpoint);
  }

  @Accepts('session')
  @Requires(SIGN_IN, OWNER)
  @Mutation(() => WebhookDeliveryType, {
    description:
      'Sends a succeeded, abandoned or dropped delivery again: same `webhook-id` and body, a new retry schedule ' +
      '(limited per hour and endpoint, as test events).',
  })
  redeliverWebhook(@Arg('delivery', () => Int) delivery: number, @Ctx() ctx: RequestContext) {
    return this.services.webhookDeliveries.redeliver(ctx, delivery);
  }

  @FieldResolver(() => Int, { nullable: true })
  addonId(@Root() endpoint: WebhookEndpoint): number | null {
    return endpoint.addon?.id ?? null;
  }
}

@Resolver(() => WebhookDeliveryType)
export class WebhookDeliveryResolver {
  @FieldResolver(() => String)
  status(@Root() delivery: WebhookDelivery): string {
    return delivery.status.toUpperCase();
  }

  @FieldResolver(() => Int, { nullable: true })
  sequence(@Root() delivery: WebhookDelivery): number | null {
    return delivery.sequence === null ? null : Number(delivery.sequence);
  }
}
