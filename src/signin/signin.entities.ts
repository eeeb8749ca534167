import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';

/**
 * A browser sign-in in progress at an OpenID Connect provider: what the callback checks the
 * provider's answer against. Single use (deleted when the callback takes it), short-lived, and bound
 * to the browser that started it (`bindingHash`: the SHA-256 of a secret kept in that browser's
 * cookie, or held by the GraphQL client that started it).
 */
@Entity({ tableName: 'signin_attempts' })
export class SigninAttempt {
  /** The `state` sent to the provider. */
  @PrimaryKey({ type: 'string', length: 64 })
  state!: string;

  @Property({ type: 'string', length: 64 })
  provider!: string;

  @Property({ type: 'string', length: 64 })
  bindingHash!: string;

  @Property({ type: 'string', length: 128 })
  nonce!: string;

  @Property({ type: 'string', length: 128 })
  codeVerifier!: string;

  /** Where the browser goes afterwards: a path of this site or a URL of an allowed front-end origin. */
  @Property({ type: 'text' })
  returnTo!: string;

  /** A second factor was asked of the provider (`acr_values`, a new login). */
  @Property({ type: 'boolean', default: false })
  secondFactor: Opt<boolean> = false;

  @Index({ name: 'signin_attempts_expires_at_index' })
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}

/**
 * An account's identity at a provider (`subject` is the provider's `sub`). The identity outlives a
 * deleted account (`user` null): signing in with it again is refused, never a new account.
 */
@Entity({ tableName: 'user_identities' })
@Unique({ name: 'user_identities_provider_subject_unique', properties: ['provider', 'subject'] })
export class UserIdentity {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => User, nullable: true, deleteRule: 'set null', index: true })
  user: User | null = null;

  @Property({ type: 'string', length: 64 })
  provider!: string;

  @Property({ type: 'string', length: 255 })
  subject!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'timestamptz', nullable: true })
  lastSignIn: Date | null = null;
}

/**
 * A one-time sign-in link sent by mail. The link's token is `<id>.<HMAC of id>` (SECRET_KEY): no
 * secret is stored, so neither this table nor the mail job's payload can sign anyone in.
 */
@Entity({ tableName: 'signin_links' })
export class SigninLink {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'string', length: 255 })
  email!: string;

  @Property({ type: 'text' })
  returnTo!: string;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Index({ name: 'signin_links_expires_at_index' })
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;

  @Property({ type: 'timestamptz', nullable: true })
  usedAt: Date | null = null;
}
