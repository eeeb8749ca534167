import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { endSession } from '../accounts/accounts.access.js';
import { permissionsOfUserSql } from '../accounts/accounts.loaders.js';
import { User } from '../accounts/user.entity.js';
import type { RequestContext } from '../core/context.js';
import { AppError, errors } from '../core/errors.js';
import { lookupRows } from '../db/rows.js';
import type { Signer } from '../core/secrets.js';
import { Session } from './session.entity.js';

/** The original's session cookie age (the default of `SESSION_MAX_AGE_SECONDS`). */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

/** How often a used session's `last_used` is written (the idle lifetime counts from it). */
const LAST_USED_REFRESH_MS = 60_000;

export interface SessionLifetimes {
  /** Seconds after its start a session ends. */
  maxAgeSeconds: number;
  /** Seconds unused after which a session ends. */
  idleSeconds: number;
}

/** How a session began, recorded with it (shown in the user's list of sessions). */
export interface SessionOrigin {
  /** A provider's name, `email-link`, `cli` or `super-create`. */
  origin?: string | null;
  secondFactor?: boolean;
  userAgent?: string | null;
  ip?: string | null;
}

export const sessionMessages = {
  expired: 'Signature has expired.',
  decoding: 'Error decoding signature.',
  incorrect: 'Incorrect authentication credentials.',
} as const;

/** A verified session, its user (as `session.user`) and the user's permissions. */
export interface VerifiedSession {
  session: Session;
  permissions: string[];
  /** The user is an author of no add-on (listed or not, any status). */
  authorsNoAddon: boolean;
}

/**
 * A session row, its user's row (every column, as `users`), the user's permissions and whether they
 * author any add-on: what each signed-in request needs, in one statement.
 */
const SESSION_QUERY = `
  select s.id as session_id, s.created as session_created, s.expires_at as session_expires_at,
    s.revoked_at as session_revoked_at, s.last_used as session_last_used, s.second_factor as session_second_factor,
    ${permissionsOfUserSql('s.user_id')} as session_permissions,
    not exists (select 1 from addon_users au where au.user_id = s.user_id) as session_authors_no_addon, u.*
  from sessions s join users u on u.id = s.user_id where s.id = ?`;

interface SessionRow {
  session_id: string;
  session_created: Date;
  session_expires_at: Date;
  session_revoked_at: Date | null;
  session_last_used: Date;
  session_second_factor: boolean;
  session_permissions: string[] | null;
  session_authors_no_addon: boolean;
  [userColumn: string]: unknown;
}

interface SessionPayload {
  sid: string;
  uid: number;
  iat: number;
}

/**
 * Internal session tokens (`Authorization: Bearer|Session <token>`, or the `frontend_auth_token`
 * cookie): a signed reference `<payload>.<hmac>` to a session row, revocable one by one, ending
 * `maxAgeSeconds` after it began or `idleSeconds` after its last use. Nothing secret is stored:
 * the row holds no token, so a copy of the database signs no one in.
 */
export class SessionsService {
  constructor(
    private readonly signer: Signer,
    private readonly lifetimes: SessionLifetimes = {
      maxAgeSeconds: SESSION_MAX_AGE_SECONDS,
      idleSeconds: SESSION_MAX_AGE_SECONDS,
    },
  ) {}

  get maxAgeSeconds(): number {
    return this.lifetimes.maxAgeSeconds;
  }

  async create(
    em: EntityManager,
    user: User,
    now = new Date(),
    origin: SessionOrigin = {},
  ): Promise<{ token: string; session: Session }> {
    const session = em.create(Session, {
      id: randomUUID(),
      user,
      created: now,
      expiresAt: new Date(now.getTime() + this.lifetimes.maxAgeSeconds * 1000),
      revokedAt: null,
      lastUsed: now,
      secondFactor: origin.secondFactor ?? false,
      origin: origin.origin ?? null,
      userAgent: origin.userAgent?.slice(0, 255) ?? null,
      ip: origin.ip?.slice(0, 45) ?? null,
    });
    await em.flush();
    const payload: SessionPayload = { sid: session.id, uid: user.id, iat: Math.floor(now.getTime() / 1000) };
    const encoded = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return { token: `${encoded}.${this.signer.sign(encoded)}`, session };
  }

  /** Checks signature and age; then the session row, its user and their permissions (one statement). */
  async verify(em: EntityManager, token: string, nowSeconds = Math.floor(Date.now() / 1000)): Promise<VerifiedSession> {
    const dot = token.lastIndexOf('.');
    const encoded = dot > 0 ? token.slice(0, dot) : '';
    if (!encoded || !this.signer.verify(encoded, token.slice(dot + 1))) {
      throw errors.authenticationFailed(sessionMessages.decoding, 'ERROR_DECODING_SIGNATURE');
    }
    let payload: SessionPayload;
    try {
      payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch {
      throw errors.authenticationFailed(sessionMessages.decoding, 'ERROR_DECODING_SIGNATURE');
    }
    if (typeof payload.iat !== 'number' || nowSeconds - payload.iat > this.lifetimes.maxAgeSeconds) {
      throw errors.authenticationFailed(sessionMessages.expired, 'ERROR_SIGNATURE_EXPIRED');
    }
    const found =
      typeof payload.sid === 'string' && /^[0-9a-f-]{36}$/.test(payload.sid) ? await this.find(em, payload.sid) : null;
    const session = found?.session;
    if (
      !found ||
      !session ||
      session.revokedAt ||
      session.expiresAt.getTime() < nowSeconds * 1000 ||
      session.user.id !== payload.uid ||
      session.user.deleted
    ) {
      throw errors.authenticationFailed(sessionMessages.incorrect);
    }
    const unused = nowSeconds * 1000 - session.lastUsed.getTime();
    if (unused > this.lifetimes.idleSeconds * 1000) {
      throw errors.authenticationFailed(sessionMessages.expired, 'ERROR_SIGNATURE_EXPIRED');
    }
    if (unused > LAST_USED_REFRESH_MS) {
      session.lastUsed = new Date(nowSeconds * 1000);
      await em
        .getConnection()
        .execute('update sessions set last_used = ? where id = ?', [session.lastUsed, session.id]);
    }
    return found;
  }

  /** Whether a token names a session still in use (any refusal of `verify`: false). */
  async isValid(em: EntityManager, token: string): Promise<boolean> {
    try {
      await this.verify(em, token);
      return true;
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }

  /** The session `id` with its user and permissions (one statement), merged into `em`. */
  private async find(em: EntityManager, id: string): Promise<VerifiedSession | null> {
    // A key lookup run for every signed-in request: prepared once per connection (lookupRows).
    const [row] = await lookupRows<SessionRow>(em, SESSION_QUERY, [id]);
    if (!row) return null;
    const {
      session_id: sessionId,
      session_created: created,
      session_expires_at: expiresAt,
      session_revoked_at: revokedAt,
      session_last_used: lastUsed,
      session_second_factor: secondFactor,
      session_permissions: permissions,
      session_authors_no_addon: authorsNoAddon,
      ...userRow
    } = row;
    const user = em.map(User, userRow);
    const session = em.map(Session, {
      id: sessionId,
      user_id: user.id,
      created,
      expires_at: expiresAt,
      revoked_at: revokedAt,
      last_used: lastUsed,
      second_factor: secondFactor,
    });
    return { session, permissions: permissions ?? [], authorsNoAddon };
  }

  async revoke(em: EntityManager, sessionId: string): Promise<void> {
    await em.nativeUpdate(Session, { id: sessionId, revokedAt: null }, { revokedAt: new Date() });
  }

  /** Ends the caller's browser session (the internal scheme only: `endSession`). */
  async logout(ctx: RequestContext): Promise<boolean> {
    endSession(ctx);
    await this.revoke(ctx.em, ctx.viewer.sessionId!);
    return true;
  }

  /** The user's sessions still usable, the most recently used first. */
  async listActive(em: EntityManager, userId: number, now = new Date()): Promise<Session[]> {
    return em.find(
      Session,
      {
        user: userId,
        revokedAt: null,
        expiresAt: { $gt: now },
        lastUsed: { $gt: new Date(now.getTime() - this.lifetimes.idleSeconds * 1000) },
      },
      { orderBy: { lastUsed: 'desc', id: 'asc' }, limit: 100 },
    );
  }

  /** Ends one of the user's sessions (false: none of theirs by that id is active). */
  async revokeOwn(em: EntityManager, userId: number, sessionId: string): Promise<boolean> {
    const ended = await em.nativeUpdate(
      Session,
      { id: sessionId, user: userId, revokedAt: null },
      { revokedAt: new Date() },
    );
    return ended > 0;
  }

  /** Ends every session of the user but `keep`; the number ended. */
  async revokeOthers(em: EntityManager, userId: number, keep: string | null): Promise<number> {
    return em.nativeUpdate(
      Session,
      { user: userId, revokedAt: null, ...(keep ? { id: { $ne: keep } } : {}) },
      { revokedAt: new Date() },
    );
  }
}
