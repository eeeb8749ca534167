import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import type { SecretBox } from '../core/secrets.js';
import { selectRows } from '../db/rows.js';
import { newWebhookSecret } from './sender.js';
import type { UrlPolicy } from './url-guard.js';
import { WebhookEndpoint } from './webhook.entity.js';
import { checkAddon, checkDescription, checkEvents, checkUrl } from './webhook-endpoint-input.js';
import { ownWebhookEndpoint, webhookOwnerId } from './webhooks.access.js';

export const MAX_ENDPOINTS_PER_USER = 10;
export const MAX_ENDPOINTS_PER_ADDON = 5;

export interface EndpointInput {
  url?: string | null;
  events?: string[] | null;
  addon?: number | null;
  description?: string | null;
  isActive?: boolean | null;
}

export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  /** Shown once: only its ciphertext is stored. */
  secret: string;
}

/** A secret's ciphertext is bound to its endpoint (not movable to another row). */
const webhookSecretContext = (endpointId: number) => `webhook-endpoint:${endpointId}`;

/**
 * Developers' webhook endpoints (GraphQL): their input (`webhook-endpoint-input.ts`), the limits
 * per user and per add-on, and their sealed secrets. Creating and updating resolve the URL's host
 * first, outside any transaction (their mutations declare `@OwnTransactions`), then write in one
 * short transaction; the other mutations run in the executor's.
 */
export class WebhookEndpointsService {
  constructor(
    private readonly box: SecretBox,
    private readonly policy: UrlPolicy,
  ) {}

  list(ctx: RequestContext): Promise<WebhookEndpoint[]> {
    return ctx.em.find(WebhookEndpoint, { owner: webhookOwnerId(ctx) }, { orderBy: { id: 'asc' } });
  }

  async create(ctx: RequestContext, input: EndpointInput): Promise<EndpointWithSecret> {
    const ownerId = webhookOwnerId(ctx);
    const fields = new FieldErrorCollector();
    const description = checkDescription(fields, input.description) ?? '';
    const url = await checkUrl(fields, input.url, true, this.policy);
    const events = checkEvents(fields, input.events, true);
    return ctx.em.transactional(async (tx) => {
      const addonId = await checkAddon(tx, fields, ownerId, input.addon ?? null);
      fields.throwIfAny();
      const [counts] = await selectRows<{ mine: string; addon: string }>(
        tx,
        `select (select count(*) from webhook_endpoints where owner_id = ?) as mine,
          (select count(*) from webhook_endpoints where addon_id = ?) as addon`,
        [ownerId, addonId ?? -1],
      );
      if (Number(counts!.mine) >= MAX_ENDPOINTS_PER_USER) {
        throw errors.field('non_field_errors', `At most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per user.`);
      }
      if (addonId !== null && Number(counts!.addon) >= MAX_ENDPOINTS_PER_ADDON) {
        throw errors.field('addon', `At most ${MAX_ENDPOINTS_PER_ADDON} webhook endpoints per add-on.`);
      }
      const endpoint = tx.create(WebhookEndpoint, {
        owner: ownerId,
        addon: addonId,
        url: url!,
        events: events!,
        description,
        isActive: input.isActive ?? true,
        secretCiphertext: '',
      });
      await tx.flush();
      const secret = this.seal(endpoint);
      await tx.flush();
      return { endpoint, secret };
    });
  }

  async update(ctx: RequestContext, id: number, input: EndpointInput): Promise<WebhookEndpoint> {
    // Someone else's endpoint is unknown before its URL is looked up.
    await this.own(ctx, id);
    const fields = new FieldErrorCollector();
    const description = checkDescription(fields, input.description);
    const url = await checkUrl(fields, input.url, false, this.policy);
    const events = checkEvents(fields, input.events, false);
    if (input.addon !== undefined) fields.add('addon', 'An endpoint’s add-on cannot be changed.');
    fields.throwIfAny();
    return ctx.em.transactional(async (tx) => {
      const endpoint = await this.own(ctx, id, tx as EntityManager);
      if (description !== null) endpoint.description = description;
      if (url) endpoint.url = url;
      if (events) endpoint.events = events;
      if (input.isActive !== undefined && input.isActive !== null) endpoint.isActive = input.isActive;
      await tx.flush();
      return endpoint;
    });
  }

  async remove(ctx: RequestContext, id: number): Promise<boolean> {
    const endpoint = await this.own(ctx, id);
    await ctx.em.nativeDelete(WebhookEndpoint, { id: endpoint.id });
    return true;
  }

  async rotateSecret(ctx: RequestContext, id: number): Promise<EndpointWithSecret> {
    const endpoint = await this.own(ctx, id);
    const secret = this.seal(endpoint);
    await ctx.em.flush();
    return { endpoint, secret };
  }

  /** The caller's endpoint (read through `em`, default the request's): `ownWebhookEndpoint` (404 otherwise). */
  async own(ctx: RequestContext, id: number, em: EntityManager = ctx.em): Promise<WebhookEndpoint> {
    return ownWebhookEndpoint(ctx, await em.findOne(WebhookEndpoint, id));
  }

  /** Reads an endpoint's secret (null: it cannot be opened). */
  openSecret(endpointId: number, ciphertext: string): string | null {
    return this.box.open(ciphertext, webhookSecretContext(endpointId));
  }

  private seal(endpoint: WebhookEndpoint): string {
    const secret = newWebhookSecret();
    endpoint.secretCiphertext = this.box.seal(secret, webhookSecretContext(endpoint.id));
    return secret;
  }
}
