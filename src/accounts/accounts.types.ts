import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../graphql/pagination.js';
import { SiteStatusType } from '../site/site.resolver.js';
import type { SiteStatus } from '../site/site.service.js';
import type { AccountInput } from './accounts.service.js';
import { Shared } from '../graphql/shared-answers.js';

/** Public view of an account. Private fields sit under `private`, which is null unless allowed. */
@Shared()
@ObjectType('User')
export class UserType {
  @Field(() => Int)
  id!: number;

  @Field({ description: 'Used in account URLs; a generated `anonymous-…` value until the user picks one.' })
  username!: string;

  @Field(() => String, { nullable: true, description: 'The name the user chose, if any.' })
  displayName!: string | null;

  @Field(() => String, { nullable: true })
  biography!: string | null;

  @Field(() => String, { nullable: true })
  homepage!: string | null;

  @Field(() => String, { nullable: true })
  location!: string | null;

  @Field(() => String, { nullable: true })
  occupation!: string | null;

  @Field()
  created!: Date;
}

/** Fields only the user themself (or a holder of Users:Edit) may read. */
@ObjectType('UserPrivateFields')
export class UserPrivateType {
  @Field()
  email!: string;

  @Field()
  deleted!: boolean;

  @Field(() => Date, { nullable: true })
  lastLogin!: Date | null;

  @Field(() => String, { nullable: true })
  lastLoginIp!: string | null;

  @Field({ description: 'Whether the developer agreement was accepted.' })
  readDevAgreement!: boolean;

  @Field(() => [String], { description: 'Sorted permission rules (`app:action`, `*` wildcards).' })
  permissions!: string[];

  @Field({ description: 'Verified through the account provider.' })
  isVerified!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Where to change the email at the account provider (configured).',
  })
  idpEditEmailUrl!: string | null;

  @Field(() => SiteStatusType, { description: 'The site status, included to save a call.' })
  siteStatus!: SiteStatus;
}

@InputType('AccountInput', { description: 'Only the fields given change; null clears a field.' })
export class AccountInputType implements AccountInput {
  @Field(() => String, { nullable: true, description: 'No links allowed.' })
  biography?: string | null;

  @Field(() => String, { nullable: true, description: '2 to 50 characters, at least one printable.' })
  displayName?: string | null;

  @Field(() => String, { nullable: true, description: 'A URL of another site.' })
  homepage?: string | null;

  @Field(() => String, { nullable: true })
  location?: string | null;

  @Field(() => String, { nullable: true })
  occupation?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Ignored: usernames are read-only (only older REST clients may still change them).',
  })
  username?: string | null;
}

@ObjectType('NotificationSetting', { description: 'A notification preference of an account.' })
export class NotificationSettingType {
  @Field()
  name!: string;

  @Field()
  enabled!: boolean;

  @Field({ description: 'Always sent; cannot be turned off.' })
  mandatory!: boolean;
}

@InputType('NotificationChange')
export class NotificationChangeType {
  @Field()
  name!: string;

  @Field()
  enabled!: boolean;
}

@ObjectType('ApiKeyCredentials', { description: 'A new JWT API key. The secret is shown only once.' })
export class ApiKeyCredentialsType {
  @Field({ description: 'The JWT issuer (`iss`), of the form user:<id>:<n>.' })
  key!: string;

  @Field({ description: 'HS256 signing secret.' })
  secret!: string;
}

@ObjectType('UserPage')
export class UserPageType extends PageOf(UserType) {}

@InputType('SuperCreateInput')
export class SuperCreateInputType {
  @Field(() => String, { nullable: true, description: 'Default: a generated fake address.' })
  email?: string | null;

  @Field(() => String, { nullable: true, description: 'Default: random.' })
  username?: string | null;

  @Field(() => String, { nullable: true, description: 'Default: none (the account needs migration to the provider).' })
  idpId?: string | null;

  @Field(() => String, { nullable: true, description: '`reviewer` or `admin`.' })
  group?: string | null;
}

@ObjectType('TestAccountGroup')
export class TestAccountGroupType {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field(() => [String])
  rules!: string[];
}

@ObjectType('SessionCookie')
export class SessionCookieType {
  @Field()
  name!: string;

  @Field()
  value!: string;

  @Field({ description: '`name=value`.' })
  encoded!: string;
}

@ObjectType('TestAccount', { description: 'A super-created test account and a session signing in as it.' })
export class TestAccountType {
  @Field(() => Int)
  userId!: number;

  @Field()
  username!: string;

  @Field()
  email!: string;

  @Field(() => String, { nullable: true })
  displayName!: string | null;

  @Field(() => String, { nullable: true })
  idpId!: string | null;

  @Field(() => [TestAccountGroupType])
  groups!: TestAccountGroupType[];

  @Field(() => SessionCookieType)
  sessionCookie!: SessionCookieType;
}
