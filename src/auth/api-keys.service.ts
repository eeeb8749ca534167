import { randomBytes, randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { User } from '../accounts/user.entity.js';
import type { SecretBox } from '../core/secrets.js';
import { ApiKey } from './api-key.entity.js';

export interface IssuedApiKey {
  key: string;
  /** Shown once; only its ciphertext is stored. */
  secret: string;
}

export interface ActiveApiKey {
  apiKey: ApiKey;
  secret: string;
}

/** JWT API keys: `user:<id>:<n>` issuers with a 64-hex-character secret, one active key per user. */
export class ApiKeysService {
  constructor(private readonly box: SecretBox) {}

  /** Revokes the user's active key (if any) and issues a new one. */
  async issue(em: EntityManager, user: User): Promise<IssuedApiKey> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const key = `user:${user.id}:${randomInt(0, 1000)}`;
      if (await em.count(ApiKey, { key })) continue;
      const secret = randomBytes(32).toString('hex');
      try {
        await em.transactional(async (tx) => {
          await tx.nativeUpdate(ApiKey, { user, isActive: true }, { isActive: null });
          tx.create(ApiKey, {
            user,
            key,
            secretCiphertext: this.box.seal(secret, key),
            isActive: true,
            created: new Date(),
          });
        });
        return { key, secret };
      } catch (error) {
        if (!(error instanceof UniqueConstraintViolationException)) throw error;
      }
    }
    throw new Error(`Could not find a free API key number for user ${user.id}`);
  }

  async revoke(em: EntityManager, user: User): Promise<boolean> {
    return (await em.nativeUpdate(ApiKey, { user, isActive: true }, { isActive: null })) > 0;
  }

  /** The active key with this issuer and its decrypted secret, or null. */
  async findActive(em: EntityManager, key: string): Promise<ActiveApiKey | null> {
    const apiKey = await em.findOne(ApiKey, { key, isActive: true }, { populate: ['user'] });
    if (!apiKey) return null;
    const secret = this.box.open(apiKey.secretCiphertext, apiKey.key);
    return secret === null ? null : { apiKey, secret };
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
