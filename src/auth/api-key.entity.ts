import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';

/**
 * A JWT API key. `key` is the public issuer (`user:<id>:<n>`); the secret is stored encrypted
 * (AES-256-GCM under a key derived from SECRET_KEY), so a database dump alone cannot sign tokens.
 * At most one active key per user; revoked keys have `isActive = null` and never authenticate again.
 */
@Entity({ tableName: 'api_keys' })
@Index({
  name: 'api_keys_one_active_per_user',
  expression: 'create unique index "api_keys_one_active_per_user" on "api_keys" ("user_id") where "is_active"',
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
}
