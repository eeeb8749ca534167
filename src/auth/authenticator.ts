import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../accounts/user.entity.js';
import type { AuthScheme } from '../access/credentials.js';
import { errors } from '../core/errors.js';
import type { ApiKeysService } from './api-keys.service.js';
import { keyScopeMessages } from '../access/key-scopes.js';
import { JWT_LEEWAY_SECONDS, jwtMessages, verifyApiKeyJwt } from './jwt.js';
import type { SessionsService } from './sessions.service.js';
import { Viewer } from './viewer.js';

const PREFIXES: Record<string, AuthScheme> = { jwt: 'jwt', bearer: 'session', session: 'session' };

/** How often a successful login refreshes `last_login` (the original wrote it on every request). */
const LAST_LOGIN_REFRESH_MS = 60_000;

/**
 * Turns an Authorization header into a Viewer. A header for a scheme the endpoint does not accept
 * is ignored (the request is anonymous), as in the original; a header for an accepted scheme that
 * fails any check is a 401 with the original's message (and `code` for session tokens).
 */
export class Authenticator {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly sessions: SessionsService,
    /** SIGNIN_REQUIRE_SECOND_FACTOR: sessions without one are marked (`Viewer.secondFactorMissing`). */
    private readonly requireSecondFactor = false,
  ) {}

  async authenticate(
    em: EntityManager,
    header: string | undefined,
    accepted: readonly AuthScheme[],
    ip: string | null,
  ): Promise<Viewer> {
    if (!header) return Viewer.anonymous;
    const parts = header.trim().split(/\s+/);
    const scheme = PREFIXES[parts[0]?.toLowerCase() ?? ''];
    if (!scheme || !accepted.includes(scheme)) return Viewer.anonymous;
    const reason = scheme === 'session' ? 'ERROR_INVALID_HEADER' : undefined;
    if (parts.length === 1) throw errors.authenticationFailed(jwtMessages.noCredentials, reason);
    if (parts.length > 2) throw errors.authenticationFailed(jwtMessages.spaces, reason);
    const token = parts[1];
    return scheme === 'jwt' ? this.fromJwt(em, token, ip) : this.fromSession(em, token, ip);
  }

  private async fromJwt(em: EntityManager, token: string, ip: string | null): Promise<Viewer> {
    const found = new Map<string, Awaited<ReturnType<ApiKeysService['findActive']>>>();
    const claims = await verifyApiKeyJwt(token, async (issuer) => {
      const active = await this.apiKeys.findActive(em, issuer);
      found.set(issuer, active);
      // An expired key: its token is verified all the same, so only its holder is told it expired.
      return active?.secret ?? (await this.apiKeys.expiredSecret(em, issuer));
    });
    const active = found.get(claims.iss);
    if (!active) throw errors.authenticationFailed(keyScopeMessages.expired);
    const { user } = active.apiKey;
    if (user.deleted) throw errors.authenticationFailed(jwtMessages.userDisabled);
    if (!user.readDevAgreement) throw errors.authenticationFailed(jwtMessages.noDevAgreement);
    if (claims.jti !== undefined) {
      const expiresAt = new Date((claims.exp + JWT_LEEWAY_SECONDS) * 1000);
      if (!(await this.apiKeys.recordNonce(em, claims.iss, claims.jti, expiresAt))) {
        throw errors.authenticationFailed(jwtMessages.replayed);
      }
    }
    await this.touchLastLogin(em, user, ip);
    await this.apiKeys.touchLastUsed(em, active.apiKey);
    const { id, scopeAddonIds: addonIds, scopeOperations: operations } = active.apiKey;
    // A key limited to some add-ons carries none of the user's permissions (admin and reviewer
    // rights reach every add-on): it acts as an author of its add-ons only.
    const permissions = addonIds ? [] : active.permissions;
    return new Viewer(user, permissions, 'jwt', null, false, { id, addonIds, operations });
  }

  private async fromSession(em: EntityManager, token: string, ip: string | null): Promise<Viewer> {
    const { session, permissions, authorsNoAddon } = await this.sessions.verify(em, token);
    await this.touchLastLogin(em, session.user, ip);
    const missing = this.requireSecondFactor && !session.secondFactor;
    return new Viewer(session.user, permissions, 'session', session.id, authorsNoAddon, null, missing);
  }

  private async touchLastLogin(em: EntityManager, user: User, ip: string | null): Promise<void> {
    const now = Date.now();
    if (user.lastLogin && now - user.lastLogin.getTime() < LAST_LOGIN_REFRESH_MS && user.lastLoginIp === ip) return;
    user.lastLogin = new Date(now);
    user.lastLoginIp = ip;
    await em
      .getConnection()
      .execute('update users set last_login = ?, last_login_ip = ? where id = ?', [user.lastLogin, ip, user.id]);
  }
}
