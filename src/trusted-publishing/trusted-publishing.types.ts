import { Field, InputType, Int, ObjectType } from 'type-graphql';

@ObjectType('TrustedPublisherClaim', { description: 'A claim an ID token must carry, with this exact value.' })
export class TrustedPublisherClaimType {
  @Field({ description: 'The claim name, e.g. `repository`, `workflow_ref`, `environment`, `project_path`.' })
  claim!: string;

  @Field()
  value!: string;
}

@ObjectType('TrustedPublisher', {
  description:
    "A CI provider's OIDC issuer and the claims its ID tokens must carry, trusted by an owner of the add-on: " +
    'such a token is exchanged for a short-lived API key scoped to the add-on (`exchangeOidcToken`).',
})
export class TrustedPublisherType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  addonId!: number;

  @Field({ description: "The issuer URL: the tokens' `iss`, exactly." })
  issuer!: string;

  @Field({ description: 'The `aud` the tokens must carry.' })
  audience!: string;

  @Field(() => [TrustedPublisherClaimType], { description: 'Every one must equal the token’s claim of that name.' })
  requiredClaims!: TrustedPublisherClaimType[];

  @Field(() => Int, { description: 'The user the issued keys act as (who added the publisher).' })
  userId!: number;

  @Field()
  created!: Date;

  @Field(() => Date, { nullable: true, description: 'The last exchange of a token matching this publisher.' })
  lastUsed!: Date | null;
}

@InputType('TrustedPublisherClaimInput')
export class TrustedPublisherClaimInput {
  @Field()
  claim!: string;

  @Field()
  value!: string;
}

@InputType('TrustedPublisherInput')
export class TrustedPublisherInput {
  @Field({ description: 'The add-on (id, slug or guid).' })
  addon!: string;

  @Field({ description: 'The issuer URL, e.g. `https://token.actions.githubusercontent.com`.' })
  issuer!: string;

  @Field(() => String, {
    nullable: true,
    description: "The `aud` tokens must carry; default: the service's configured audience (its site URL).",
  })
  audience?: string | null;

  @Field(() => [TrustedPublisherClaimInput], {
    description:
      'At least one. GitHub Actions: `repository` and `workflow_ref` or `job_workflow_ref` (optionally ' +
      '`environment`); GitLab: `project_path` (optionally `ref`).',
  })
  requiredClaims!: TrustedPublisherClaimInput[];
}

@ObjectType('OidcTokenExchange', {
  description:
    'A short-lived API key (JWT issuer and secret) for `web-ext sign`, scoped to the add-on of the matching publishers.',
})
export class OidcTokenExchangeType {
  @Field({ description: 'The JWT issuer (`web-ext sign --api-key`).' })
  apiKey!: string;

  @Field({ description: 'The secret (`--api-secret`); shown once.' })
  apiSecret!: string;

  @Field()
  expiresAt!: Date;
}
