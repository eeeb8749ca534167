import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { KeyOperation } from '../access/key-scopes.js';

registerEnumType(KeyOperation, {
  name: 'KeyOperation',
  description: 'The operation families an API key can be limited to.',
  valuesConfig: {
    UPLOAD: { description: 'Submit versions and new add-ons, attach source code, roll back, reply to reviewers.' },
    STATUS: { description: 'Read uploads, versions, review notes; download the add-ons’ files.' },
    LISTING: { description: 'Edit listings (no operation accepting API keys edits listings yet).' },
    ACCOUNT: { description: 'Read and edit the own account; abuse reports; test accounts.' },
  },
});

@ObjectType('ApiKey', { description: 'An active API key of the caller (never its secret).' })
export class ApiKeyType {
  @Field(() => ID)
  id!: number;

  @Field({ description: 'The JWT issuer (`iss`), of the form user:<id>:<n>.' })
  key!: string;

  @Field(() => String, { nullable: true, description: 'Null for the default key.' })
  name!: string | null;

  @Field(() => String, { description: '`default`, `scoped` or `trusted-publishing`.' })
  kind!: string;

  @Field(() => [Int], {
    nullable: true,
    description: 'Ids of the add-ons the key may act on; null: every add-on of the user (and new ones).',
  })
  scopeAddonIds!: number[] | null;

  @Field(() => [KeyOperation], { nullable: true, description: 'The families the key may use; null: all.' })
  scopeOperations!: string[] | null;

  @Field(() => Date, { nullable: true })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'Refreshed at most once a minute.' })
  lastUsedAt!: Date | null;

  @Field(() => Date)
  created!: Date;
}

@ObjectType('CreatedApiKey', { description: 'A new key and its secret, answered this once only.' })
export class CreatedApiKeyType {
  @Field(() => ApiKeyType)
  apiKey!: ApiKeyType;

  @Field({ description: 'HS256 signing secret: store it now, it cannot be read again.' })
  secret!: string;
}

@InputType('CreateApiKeyInput')
export class CreateApiKeyInput {
  @Field({ description: 'Unique among your active keys; at most 100 characters.' })
  name!: string;

  @Field(() => [ID], { nullable: true, description: 'Add-ons you author; omitted: every add-on, and new ones.' })
  addons?: string[] | null;

  @Field(() => [KeyOperation], { nullable: true, description: 'Omitted: every family.' })
  operations?: KeyOperation[] | null;

  @Field(() => Date, { nullable: true, description: 'At most 366 days ahead.' })
  expiresAt?: Date | null;

  @Field(() => Int, { nullable: true, description: 'Instead of expiresAt; without either, 90 days.' })
  expiresInDays?: number | null;
}
