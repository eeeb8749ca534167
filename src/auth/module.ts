import { defineModule } from '../core/module.js';
import { accountsModule } from '../accounts/module.js';
import { authMigrations } from './migrations/index.js';
import { authSettings } from './settings.js';
import { createAuthServices } from './services.js';
import { ApiKey } from './api-key.entity.js';
import { JwtNonce } from './jwt-nonce.entity.js';
import { Session } from './session.entity.js';
import { ApiKeysResolver } from './api-keys.resolver.js';

/** Credentials (API keys, JWT nonces, sessions) and who a request is; the caller's keys and sign-out. */
export const authModule = defineModule({
  name: 'auth',
  dependsOn: [accountsModule],
  settings: authSettings,
  entities: [ApiKey, JwtNonce, Session],
  resolvers: [ApiKeysResolver],
  migrations: authMigrations,
  services: createAuthServices,
});

export type { AuthServices } from './services.js';
