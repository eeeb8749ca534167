import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

@ObjectType('WebhookEndpoint', {
  description: 'A developer’s webhook endpoint (Standard Webhooks signatures); its secret is shown only once.',
})
export class WebhookEndpointType {
  @Field(() => Int)
  id!: number;

  @Field(() => String)
  url!: string;

  @Field(() => [String], { description: 'The events it receives (docs/api.md "Webhooks").' })
  events!: string[];

  @Field(() => Int, { nullable: true, description: 'Its one add-on; null: every add-on its owner authors.' })
  addonId!: number | null;

  @Field(() => String)
  description!: string;

  @Field(() => Boolean)
  isActive!: boolean;

  @Field(() => Date, {
    nullable: true,
    description: 'Set when it kept failing: nothing is sent (its deliveries wait) until `resumeWebhookEndpoint`.',
  })
  suspendedAt!: Date | null;

  @Field(() => String, { nullable: true, description: 'Why it was suspended.' })
  suspendedReason!: string | null;

  @Field(() => Date, {
    nullable: true,
    description:
      'After failed attempts in a row, nothing is sent before this time (the first retry’s wait, doubled with each failure, at most 10 minutes); a test event or a success clears it.',
  })
  backoffUntil!: Date | null;

  @Field(() => Date)
  created!: Date;
}

@ObjectType('WebhookEndpointWithSecret', {
  description: 'An endpoint and its new signing secret (`whsec_…`): shown this once, never again.',
})
export class WebhookEndpointWithSecretType {
  @Field(() => WebhookEndpointType)
  endpoint!: WebhookEndpointType;

  @Field(() => String)
  secret!: string;
}

@ObjectType('WebhookDelivery', { description: 'One event sent (or being sent) to one endpoint, and its attempts.' })
export class WebhookDeliveryType {
  @Field(() => Int)
  id!: number;

  @Field(() => ID, { description: 'The `webhook-id` header, the same on every attempt.' })
  eventId!: string;

  @Field(() => String)
  type!: string;

  @Field(() => String, {
    description:
      'PENDING, FAILED (a retry is scheduled), SUCCEEDED, ABANDONED, or DROPPED (never sent: the endpoint had too ' +
      'many deliveries waiting; `lastError` says so).',
  })
  status!: string;

  @Field(() => Int, { nullable: true, description: 'Per endpoint, given when first attempted.' })
  sequence!: number | null;

  @Field(() => GraphQLJSONObject, { description: 'The JSON body sent.' })
  payload!: Record<string, unknown>;

  @Field(() => Int)
  attempts!: number;

  @Field(() => Int, { nullable: true })
  lastStatusCode!: number | null;

  @Field(() => String, { nullable: true })
  lastError!: string | null;

  @Field(() => String, { nullable: true, description: 'At most 1 KiB of the last answer’s body.' })
  responseExcerpt!: string | null;

  @Field(() => Date, { nullable: true })
  nextAttemptAt!: Date | null;

  @Field(() => Date)
  created!: Date;

  @Field(() => Date, { nullable: true })
  delivered!: Date | null;
}

@ObjectType('WebhookDeliveryPage', { description: 'Deliveries, newest first.' })
export class WebhookDeliveryPageType {
  @Field(() => [WebhookDeliveryType])
  items!: WebhookDeliveryType[];

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page.' })
  endCursor!: string | null;

  @Field(() => Boolean)
  hasNextPage!: boolean;
}

@InputType('WebhookEndpointInput')
export class WebhookEndpointInput {
  @Field(() => String, { nullable: true, description: 'http(s); https in production. Required when creating.' })
  url?: string | null;

  @Field(() => [String], { nullable: true, description: 'Event names; at least one. Required when creating.' })
  events?: string[] | null;

  @Field(() => Int, { nullable: true, description: 'Creating only: limit it to this add-on of yours.' })
  addon?: number | null;

  @Field(() => String, { nullable: true })
  description?: string | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;
}
