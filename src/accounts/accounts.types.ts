import { Field, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../graphql/pagination.js';

/** Public view of an account. Private fields sit under `private`, which is null unless allowed. */
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

  @Field(() => Date, { nullable: true, description: 'When the developer agreement was accepted.' })
  readDevAgreement!: Date | null;

  @Field(() => [String], { description: 'Sorted permission rules (`app:action`, `*` wildcards).' })
  permissions!: string[];
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
