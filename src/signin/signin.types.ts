import { Field, ObjectType } from 'type-graphql';

@ObjectType('SignInProvider', { description: 'An OpenID Connect provider people sign in with.' })
export class SignInProviderType {
  @Field(() => String, { description: 'Its name in requests (`provider`).' })
  id!: string;

  @Field(() => String, { description: 'Its name shown to people.' })
  displayName!: string;
}

@ObjectType('SignInStart', { description: 'A sign-in started: the browser goes to `location`.' })
export class SignInStartType {
  @Field(() => String, { description: "The provider's authorization URL." })
  location!: string;

  @Field(() => String, {
    description:
      'Kept by the client (a browser: in a cookie) and given back to finish the sign-in; never sent elsewhere.',
  })
  binding!: string;
}

@ObjectType('SignInResult', { description: 'A finished sign-in, or why it was refused.' })
export class SignInResultType {
  @Field(() => String, {
    nullable: true,
    description: 'The session token (sent as `Authorization: Session <token>`); null when refused.',
  })
  token!: string | null;

  @Field(() => String, { description: 'Where the browser goes now (with `?error=<code>` when refused).' })
  returnTo!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Why it was refused: ERROR_STATE_MISMATCH, ERROR_NO_CODE, ERROR_PROVIDER, ERROR_AUTHENTICATION_FAILED, ' +
      'ERROR_NO_PROFILE, ERROR_EMAIL_NOT_VERIFIED, ERROR_EMAIL_IN_USE, ERROR_ACCOUNT_DELETED or ERROR_LINK_INVALID.',
  })
  error!: string | null;

  @Field(() => Boolean, { description: 'The sign-in created the account.' })
  newAccount!: boolean;

  @Field(() => Number, { description: 'Seconds the session lasts at most.' })
  expiresIn!: number;
}

@ObjectType('ActiveSession', { description: 'One of the caller’s sessions still in use.' })
export class ActiveSessionType {
  @Field(() => String)
  id!: string;

  @Field(() => Date)
  created!: Date;

  @Field(() => Date, { description: 'Last used (to the minute).' })
  lastUsed!: Date;

  @Field(() => Date)
  expiresAt!: Date;

  @Field(() => String, {
    nullable: true,
    description: 'How it began: a provider’s name, `email-link`, `cli` or `super-create`.',
  })
  origin!: string | null;

  @Field(() => Boolean, { description: 'Its sign-in proved a second factor.' })
  secondFactor!: boolean;

  @Field(() => String, { nullable: true })
  userAgent!: string | null;

  @Field(() => String, { nullable: true })
  ip!: string | null;

  @Field(() => Boolean, { description: 'The session of this request.' })
  current!: boolean;
}
