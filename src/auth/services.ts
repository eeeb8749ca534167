import type { Platform } from '../core/module.js';
import type { AccountsServices } from '../accounts/services.js';
import { ApiKeysService } from './api-keys.service.js';
import { SessionsService } from './sessions.service.js';
import { Authenticator } from './authenticator.js';
import { ScopedKeysService } from './scoped-keys.service.js';

/** The auth module's services, from the platform and the accounts they are credentials of. */
export function createAuthServices(
  { config, keyring }: Platform,
  { accounts }: { readonly accounts: AccountsServices },
) {
  const apiKeys = new ApiKeysService(keyring.box('api-key-secrets'));
  const sessions = new SessionsService(keyring.signer('session-tokens'), {
    maxAgeSeconds: config.SESSION_MAX_AGE_SECONDS,
    idleSeconds: config.SESSION_IDLE_SECONDS,
  });
  const authenticator = new Authenticator(apiKeys, sessions, config.SIGNIN_REQUIRE_SECOND_FACTOR);
  // An account's credentials, as accounts runs them (super-create's session, an anonymised account's revocation).
  accounts.accountHooks.provide({
    startSession: async (em, user) => (await sessions.create(em, user)).token,
    revokeCredentials: async (em, user) => {
      await sessions.revokeOthers(em, user.id, null);
      await apiKeys.revokeAll(em, user);
    },
  });
  return { apiKeys, sessions, authenticator, scopedKeys: new ScopedKeysService(apiKeys) };
}

export type AuthServices = ReturnType<typeof createAuthServices>;
