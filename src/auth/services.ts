import type { Platform } from '../core/module.js';
import { ApiKeysService } from './api-keys.service.js';
import { SessionsService } from './sessions.service.js';
import { Authenticator } from './authenticator.js';
import { ScopedKeysService } from './scoped-keys.service.js';

/** The auth module's services, from the platform. */
export function createAuthServices({ config, keyring }: Platform) {
  const apiKeys = new ApiKeysService(keyring.box('api-key-secrets'));
  const sessions = new SessionsService(keyring.signer('session-tokens'), {
    maxAgeSeconds: config.SESSION_MAX_AGE_SECONDS,
    idleSeconds: config.SESSION_IDLE_SECONDS,
  });
  const authenticator = new Authenticator(apiKeys, sessions, config.SIGNIN_REQUIRE_SECOND_FACTOR);
  return { apiKeys, sessions, authenticator, scopedKeys: new ScopedKeysService(apiKeys) };
}

export type AuthServices = ReturnType<typeof createAuthServices>;
