import type { DomainManifest } from '../core/domain.js';
import { ApiKey } from './api-key.entity.js';
import { JwtNonce } from './jwt-nonce.entity.js';
import { Session } from './session.entity.js';

/** Credentials (API keys, JWT nonces, sessions): no GraphQL operations of its own. */
export const authManifest: DomainManifest = {
  name: 'auth',
  entities: [ApiKey, JwtNonce, Session],
  resolvers: [],
};
