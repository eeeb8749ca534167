import { randomBytes, randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { permissionsOfUserSql } from '../accounts/accounts.loaders.js';
import { User } from '../accounts/user.entity.js';
import type { SecretBox } from '../core/secrets.js';
import { ApiKey, type ApiKeyKind } from './api-key.entity.js';

/** How often a key's `last_used_at` is refreshed (as `last_login` is for the user). */
const LAST_USED_REFRESH_MS = 60_000;

export interface IssuedApiKey {
  key: string;
  /** Shown once; only its ciphertext is stored. */
  secret: string;
}

type KeyScopeColumn = 'kind' | 'name' | 'scopeAddonIds' | 'scopeOperations' | 'expiresAt' | 'trustedPublisherIds';

/** What limits a scoped key; null fields are unlimited. */
export interface KeyScopeInput {
  kind: 'scoped' | 'trusted-publishing';
  name: string | null;
  addonIds: number[] | null;
  operations: string[] | null;
  expiresAt: Date | null;
  /** Every trusted publisher the key was issued for (kind `trusted-publishing`). */
  trustedPublisherIds?: number[] | null;
}

export interface ActiveApiKey {
  apiKey: ApiKey;
  secret: string;
  /** The key user's permission rules, sorted. */
  permissions: string[];
}

/** An active key with its user (all columns) and the user's permissions. */
const ACTIVE_KEY_QUERY = `
  select k.id as key_id, k.key as key_key, k.secret_ciphertext as key_secret_ciphertext,
    k.created as key_created, k.kind as key_kind, k.name as key_name,
    k.scope_addon_ids as key_scope_addon_ids, k.scope_operations as key_scope_operations,
    k.expires_at as key_expires_at, k.last_used_at as key_last_used_at,
    k.trusted_publisher_ids as key_trusted_publisher_ids,
    ${permissionsOfUserSql('k.user_id')} as key_permissions, u.*
  from api_keys k join users u on u.id = k.user_id
  where k.key = ? and k.is_active and (k.expires_at is null or k.expires_at > now())`;

interface ActiveKeyRow {
  key_id: number;
  key_key: string;
  key_secret_ciphertext: string;
  key_created: Date;
  key_kind: ApiKeyKind;
  key_name: string | null;
  key_scope_addon_ids: number[] | null;
  key_scope_operations: string[] | null;
  key_expires_at: Date | null;
  key_last_used_at: Date | null;
  key_trusted_publisher_ids: number[] | null;
  key_permissions: string[] | null;
  [userColumn: string]: unknown;
}

/** JWT API keys: `user:<id>:<n>` issuers with a 64-hex-character secret, one active key per user. */
export class ApiKeysService {
  constructor(private readonly box: SecretBox) {}

  /** Revokes the user's active default key (if any) and issues a new one. */
  async issue(em: EntityManager, user: User): Promise<IssuedApiKey> {
    const { key, secret } = await this.insertKey(em, user, 1000, {}, (tx) =>
      tx.nativeUpdate(ApiKey, { user, isActive: true, kind: 'default' }, { isActive: null }),
    );
    return { key, secret };
  }

  /** Revokes the user's active default key. */
  async revoke(em: EntityManager, user: User): Promise<boolean> {
    return (await em.nativeUpdate(ApiKey, { user, isActive: true, kind: 'default' }, { isActive: null })) > 0;
  }

  /** Revokes every active key of the user, scoped and short-lived ones too (account deletion). */
  async revokeAll(em: EntityManager, user: User): Promise<number> {
    return em.nativeUpdate(ApiKey, { user, isActive: true }, { isActive: null });
  }

  /**
   * Issues a new key limited by `scope` (see src/access/key-scopes.ts), beside the user's other keys.
   * The caller has checked the scope's rules (names, add-ons the user authors, families, expiry).
   */
  async issueScoped(em: EntityManager, user: User, scope: KeyScopeInput): Promise<IssuedApiKey & { apiKey: ApiKey }> {
    const { key, secret } = await this.insertKey(em, user, 1_000_000, {
      kind: scope.kind,
      name: scope.name,
      scopeAddonIds: scope.addonIds,
      scopeOperations: scope.operations,
      expiresAt: scope.expiresAt,
      trustedPublisherIds: scope.trustedPublisherIds ?? null,
    });
    return { key, secret, apiKey: await em.findOneOrFail(ApiKey, { key }) };
  }

  /**
   * Inserts a key with a free issuer number below `numbers` and a new secret, after `before` (in the
   * same savepoint, so a unique violation aborts neither it nor the caller's transaction).
   */
  private async insertKey(
    em: EntityManager,
    user: User,
    numbers: number,
    fields: Partial<Pick<ApiKey, KeyScopeColumn>>,
    before?: (tx: EntityManager) => Promise<unknown>,
  ): Promise<IssuedApiKey> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const key = `user:${user.id}:${randomInt(0, numbers)}`;
      if (await em.count(ApiKey, { key })) continue;
      const secret = randomBytes(32).toString('hex');
      try {
        await em.transactional(async (tx) => {
          await before?.(tx);
          tx.create(ApiKey, {
            user,
            key,
            secretCiphertext: this.box.seal(secret, key),
            isActive: true,
            created: new Date(),
            ...fields,
          });
        });
        return { key, secret };
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException)) throw error;
      }
    }
    throw new Error(`Could not find a free API key number for user ${user.id}`);
  }

  /**
   * The active key with this issuer, its decrypted secret, its user and the user's permissions
   * (one statement, merged into `em`), or null.
   */
  async findActive(em: EntityManager, key: string): Promise<ActiveApiKey | null> {
    const [row] = await em.getConnection().execute<ActiveKeyRow[]>(ACTIVE_KEY_QUERY, [key]);
    if (!row) return null;
    const {
      key_id: id,
      key_key: issuer,
      key_secret_ciphertext: ciphertext,
      key_created: created,
      key_kind: kind,
      key_name: name,
      key_scope_addon_ids: scopeAddonIds,
      key_scope_operations: scopeOperations,
      key_expires_at: expiresAt,
      key_last_used_at: lastUsedAt,
      key_trusted_publisher_ids: trustedPublisherIds,
      key_permissions: permissions,
      ...userRow
    } = row;
    const secret = this.box.open(ciphertext, issuer);
    if (secret === null) return null;
    const user = em.map(User, userRow);
    const apiKey = em.map(ApiKey, {
      id,
      user_id: user.id,
      key: issuer,
      secret_ciphertext: ciphertext,
      is_active: true,
      created,
      kind,
      name,
      scope_addon_ids: scopeAddonIds,
      scope_operations: scopeOperations,
      expires_at: expiresAt,
      last_used_at: lastUsedAt,
      trusted_publisher_ids: trustedPublisherIds,
    });
    return { apiKey, secret, permissions: permissions ?? [] };
  }

  /**
   * The secret of an active key that has expired (null otherwise): the authenticator verifies a
   * token's signature with it before answering "expired", so only the key's holder learns that.
   */
  async expiredSecret(em: EntityManager, key: string): Promise<string | null> {
    const [row] = await em
      .getConnection()
      .execute<{ secret_ciphertext: string }[]>(
        'select secret_ciphertext from api_keys where key = ? and is_active and expires_at <= now()',
        [key],
      );
    return row ? this.box.open(row.secret_ciphertext, key) : null;
  }

  /** Records that the key authenticated a request: one UPDATE, at most once a minute per key. */
  async touchLastUsed(em: EntityManager, apiKey: ApiKey, now = new Date()): Promise<void> {
    if (apiKey.lastUsedAt && now.getTime() - apiKey.lastUsedAt.getTime() < LAST_USED_REFRESH_MS) return;
    await em
      .getConnection()
      .execute('update api_keys set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)', [
        now,
        apiKey.id,
        new Date(now.getTime() - LAST_USED_REFRESH_MS),
      ]);
  }

  /** The user's active (unexpired) keys of every kind, newest first. */
  async listActive(em: EntityManager, userId: number): Promise<ApiKey[]> {
    return em.find(
      ApiKey,
      { user: userId, isActive: true, $or: [{ expiresAt: null }, { expiresAt: { $gt: new Date() } }] },
      { orderBy: { created: 'desc', id: 'desc' } },
    );
  }

  /** Revokes one active key of the user by id; false when the user has no such active key. */
  async revokeById(em: EntityManager, userId: number, id: number): Promise<boolean> {
    return (await em.nativeUpdate(ApiKey, { id, user: userId, isActive: true }, { isActive: null })) > 0;
  }

  /** Records a jti; false when it was already used by this issuer within its lifetime. */
  async recordNonce(em: EntityManager, issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
    const rows: unknown[] = await em.getConnection().execute(
      `insert into jwt_nonces (issuer, jti, expires_at) values (?, ?, ?)
         on conflict (issuer, jti) do update set expires_at = excluded.expires_at
           where jwt_nonces.expires_at < now()
         returning 1 as inserted`,
      [issuer, jti, expiresAt],
    );
    return rows.length > 0;
  }

  async purgeExpiredNonces(em: EntityManager): Promise<number> {
    const result = await em.getConnection().execute(`delete from jwt_nonces where expires_at < now()`, [], 'run');
    return (result as { affectedRows?: number }).affectedRows ?? 0;
  }
}
