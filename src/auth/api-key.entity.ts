import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { numberArray } from '../db/types.js';

/**
 * How a key came to be. `default`: the user's one full-scope key (the original's only kind; at most
 * one active per user). `scoped`: a named key the user made, limited to some add-ons and/or some
 * operation families, possibly expiring. `trusted-publishing`: a short-lived scoped key issued in
 * exchange for a CI provider's OIDC token (src/trusted-publishing/).
 */
export type ApiKeyKind = 'default' | 'scoped' | 'trusted-publishing';

/**
 * A JWT API key. `key` is the public issuer (`user:<id>:<n>`); the secret is stored encrypted
 * (AES-256-GCM under a key derived from SECRET_KEY), so a database dump alone cannot sign tokens.
 * At most one active `default` key per user; revoked keys have `isActive = null` and never
 * authenticate again. Scope: `scopeAddonIds` null means every add-on of the user; `scopeOperations`
 * null means every operation family (see src/access/key-scopes.ts); an expired key authenticates no
 * more.
 */
@Entity({ tableName: 'api_keys' })
@Index({
  name: 'api_keys_user_active',
  expression: 'create index "api_keys_user_active" on "api_keys" ("user_id") where "is_active"',
})
// Removing a trusted publisher revokes the active keys it contributed to (`= any(trusted_publisher_ids)`).
@Index({
  name: 'api_keys_trusted_publishers',
  expression:
    'create index "api_keys_trusted_publishers" on "api_keys" using gin ("trusted_publisher_ids") where "is_active"',
})
@Index({
  name: 'api_keys_one_active_per_user',
  expression:
    'create unique index "api_keys_one_active_per_user" on "api_keys" ("user_id") where "is_active" and "kind" = \'default\'',
})
export class ApiKey {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'string', length: 255, unique: true })
  key!: string;

  @Property({ type: 'text' })
  secretCiphertext!: string;

  @Property({ type: 'boolean', nullable: true, default: true })
  isActive: boolean | null = true;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  @Property({ type: 'string', length: 20, default: 'default' })
  kind: Opt<ApiKeyKind> = 'default';

  /** A name the user gave the key (null for the default key). */
  @Property({ type: 'string', length: 100, nullable: true })
  name: string | null = null;

  /** The add-ons the key may act on; null: all of the user's add-ons (and new ones). */
  @Property({ type: numberArray, columnType: 'int[]', nullable: true })
  scopeAddonIds: number[] | null = null;

  /** The operation families the key may use; null: all. */
  @Property({ type: 'text[]', nullable: true })
  scopeOperations: string[] | null = null;

  /** After this the key authenticates no more; null: never expires. */
  @Property({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null = null;

  /** When the key last authenticated a request (refreshed at most once a minute). */
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  /**
   * Every trusted publisher whose match issued this key (kind `trusted-publishing`): removing any of
   * them revokes it.
   */
  @Property({ type: numberArray, columnType: 'int[]', nullable: true })
  trustedPublisherIds: number[] | null = null;
}
