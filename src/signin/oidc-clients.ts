import * as client from 'openid-client';
import { errors, type AppError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { isLoopback, type SigninProvider } from './providers.js';

/** How long a failed discovery is remembered before the provider is asked again. */
const RETRY_AFTER_FAILURE_MS = 30_000;

/**
 * Each provider's relying-party configuration (openid-client: its discovery document, keys and
 * client authentication), discovered on first use and kept. A provider that cannot be reached is a
 * 503 for the sign-ins that need it, asked again after 30 s; the others are not affected.
 */
export class OidcClients {
  private readonly configs = new Map<string, Promise<client.Configuration>>();
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly logger: Logger) {}

  async get(provider: SigninProvider): Promise<client.Configuration> {
    const failed = this.failedAt.get(provider.id);
    if (failed !== undefined && Date.now() - failed < RETRY_AFTER_FAILURE_MS) throw unavailable(provider);
    let config = this.configs.get(provider.id);
    if (!config) {
      config = this.discover(provider);
      this.configs.set(provider.id, config);
    }
    try {
      return await config;
    } catch (error) {
      this.configs.delete(provider.id);
      this.failedAt.set(provider.id, Date.now());
      this.logger.warn({ err: error, provider: provider.id }, 'OpenID Connect discovery failed');
      throw unavailable(provider);
    }
  }

  private discover(provider: SigninProvider): Promise<client.Configuration> {
    const issuer = new URL(provider.issuer);
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer.hostname);
    return client.discovery(
      issuer,
      provider.clientId,
      undefined,
      provider.clientSecret === null ? client.None() : client.ClientSecretBasic(provider.clientSecret),
      { timeout: 10, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) },
    );
  }
}

function unavailable(provider: SigninProvider): AppError {
  return errors.unavailable(`The sign-in provider ${provider.displayName} cannot be reached; try again later.`);
}
