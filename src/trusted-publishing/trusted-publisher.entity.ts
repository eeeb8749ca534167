import { Entity, Index, ManyToOne, PrimaryKey, Property, type Opt } from '@mikro-orm/core';
import { User } from '../accounts/user.entity.js';
import { Addon } from '../catalogue/addon.entity.js';

/**
 * A trusted publisher: an owner of the add-on trusts an OIDC issuer (a CI provider) and a set of
 * claims of its ID tokens (e.g. GitHub's `repository` and `workflow_ref`). CI exchanges such a
 * token for a short-lived API key scoped to the add-on (`TokenExchangeService.exchange`),
 * acting as the owner who added the publisher (`user`), while that user is still an author.
 * Removing a publisher deactivates it (`isActive` false): its history stays in the audit log.
 */
@Entity({ tableName: 'trusted_publishers' })
@Index({
  name: 'trusted_publishers_active_issuer',
  expression: 'create index "trusted_publishers_active_issuer" on "trusted_publishers" ("issuer") where "is_active"',
})
export class TrustedPublisher {
  @PrimaryKey({ type: 'integer', autoincrement: true })
  id!: number;

  @ManyToOne({ entity: () => Addon, deleteRule: 'cascade' })
  addon!: Addon;

  /** Who added it: the issued keys act as this user (who must still be an author at exchange time). */
  @ManyToOne({ entity: () => User, deleteRule: 'cascade' })
  user!: User;

  /** The issuer URL, equal to the tokens' `iss` and the discovery document's `issuer`. */
  @Property({ type: 'string', length: 255 })
  issuer!: string;

  /** The `aud` the tokens must carry. */
  @Property({ type: 'string', length: 255 })
  audience!: string;

  /** Claim name -> the exact string value a token must carry (all of them). */
  @Property({ type: 'jsonb' })
  requiredClaims!: Record<string, string>;

  @Property({ type: 'boolean', default: true })
  isActive: Opt<boolean> = true;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  created: Opt<Date> = new Date();

  /** The last exchange of a token matching it. */
  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;
}

/**
 * An ID token already exchanged (its `jti`, or the SHA-256 of the token without one), kept until
 * the token expires so that it cannot be exchanged twice.
 */
@Entity({ tableName: 'trusted_publishing_tokens' })
export class ExchangedOidcToken {
  /** `<issuer> <jti>` or `sha256:<hex>`, hashed: SHA-256 hex. */
  @PrimaryKey({ type: 'string', length: 64 })
  digest!: string;

  @Index()
  @Property({ type: 'timestamptz' })
  expiresAt!: Date;
}
