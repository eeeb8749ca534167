import { defineModule } from '../core/module.js';
import { authMigrations } from './migrations/index.js';
import { authSettings } from './settings.js';
import { createAuthServices } from './services.js';
import { ApiKey } from './api-key.entity.js';
import { JwtNonce } from './jwt-nonce.entity.js';
import { Session } from './session.entity.js';

/** Credentials (API keys, JWT nonces, sessions) and who a request is: no GraphQL operations of its own. */
export const authModule = defineModule({
  name: 'auth',
  dependsOn: [],
  settings: authSettings,
  entities: [ApiKey, JwtNonce, Session],
  resolvers: [],
  migrations: authMigrations,
  services: createAuthServices,
});

export type { AuthServices } from './services.js';
