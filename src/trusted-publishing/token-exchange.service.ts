import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  decodeJwt,
  decodeProtectedHeader,
  errors as jose,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { User } from '../accounts/user.entity.js';
import type { ApiKeysService } from '../auth/api-keys.service.js';
import { KeyOperation } from '../access/key-scopes.js';
import { isDeletedAddon, isUserAuthor } from '../catalogue/addon-access.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { executeSql } from '../db/sql.js';
import { IssuerDiscoveryError, OIDC_ALGORITHMS, OidcIssuers } from './oidc.js';
import { TrustedPublisher } from './trusted-publisher.entity.js';
import type { TrustedPublishingOptions } from './trusted-publishers.service.js';
import { TRUSTED_PUBLISHING_TEXT_LIMITS } from './text-limits.js';

/** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds. */
export const CLOCK_TOLERANCE_SECONDS = 30;
/**
 * Oldest token exchanged (`iat`), in seconds: GitLab mints a job's ID token when the job starts,
 * so a release job that builds first exchanges it minutes later.
 */
export const MAX_TOKEN_AGE_SECONDS = 3600;
/** The operation families of an issued key: submit versions and read their status. */
const ISSUED_OPERATIONS = [KeyOperation.UPLOAD, KeyOperation.STATUS];
/** A JWS in compact form: three base64url parts. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export interface IssuedTrustedKey {
  apiKey: string;
  apiSecret: string;
  expiresAt: Date;
}

const tokenError = (message: string) => errors.authenticationFailed(message, 'ERROR_INVALID_OIDC_TOKEN');

/**
 * The OIDC token exchange (no credentials): CI exchanges an ID token for a short-lived API key
 * scoped to ONE add-on (families `upload` and `status`), acting as an owner who trusted the token's
 * publisher (publishers: trusted-publishers.service.ts).
 *
 * An exchange: the token is length- and shape-checked, its (unverified) `iss` must be an allowed
 * issuer some active publisher trusts (one short read; nothing is fetched otherwise), then its
 * signature and `iss`, `aud`, `exp`, `nbf`, `iat` are verified against the issuer's published keys.
 * The active publishers of that issuer whose audience and every required claim match (exact string
 * equality) are the token's. The request names the add-on it publishes (`addon`: id, slug or
 * guid): then only that add-on's publishers are considered, so a publisher someone else added to
 * another add-on with the same issuer and claims (claims of open-source projects are public)
 * changes nothing. Every way an add-on is not covered (unknown, not visible, no publisher of the
 * issuer, claims that do not match) answers the same 403, after the token was verified, so
 * naming add-ons tells nothing about them. Without `addon` (older clients), the token's usable
 * publishers must belong to one add-on; several add-ons answer 400 asking to name it.
 * The key acts as the user who added the add-on's first matching publisher (still an author) and
 * records every matching publisher (removing any of them revokes it); the token cannot be
 * exchanged again (its `jti`, or the hash of its signed part, is kept until it expires); the
 * add-on's audit log records the exchange.
 *
 * Runs outside the executor's transaction (`@OwnTransactions`): the issuer's discovery document
 * and key set are fetched while no connection is held, then everything from the publishers'
 * re-read to the audit entry is one short transaction of its own. A refused exchange writes
 * nothing.
 */
export class TokenExchangeService {
  private readonly allowedIssuers: ReadonlySet<string>;

  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly lifecycle: AddonLifecycle,
    private readonly catalogue: CatalogueService,
    private readonly options: TrustedPublishingOptions,
    private readonly issuers: OidcIssuers = new OidcIssuers({
      ttlMs: 10 * 60_000,
      timeoutMs: 5_000,
      allowInsecure: options.allowInsecureIssuers,
    }),
  ) {
    this.allowedIssuers = new Set(options.issuers);
  }

  async exchange(
    ctx: RequestContext,
    token: string | null | undefined,
    addon?: string | null,
  ): Promise<IssuedTrustedKey> {
    if (typeof token !== 'string' || !token) throw errors.field('token', fieldMessages.required);
    const tooLong = lengthProblem(token, TRUSTED_PUBLISHING_TEXT_LIMITS.oidcToken);
    if (tooLong) throw errors.field('token', tooLong);
    const named = namedAddon(addon);
    if (!COMPACT_JWS.test(token)) throw tokenError('The token is not a signed JWT.');
    let unverified: JWTPayload;
    try {
      const { alg } = decodeProtectedHeader(token);
      if (!(OIDC_ALGORITHMS as readonly string[]).includes(alg ?? '')) {
        throw tokenError(`The token's algorithm ${JSON.stringify(alg)} is not accepted (asymmetric signatures only).`);
      }
      unverified = decodeJwt(token);
    } catch (error) {
      if (error instanceof jose.JOSEError) throw tokenError('The token is not a signed JWT.');
      throw error;
    }
    const issuer = unverified.iss;
    if (typeof issuer !== 'string' || !issuer) throw tokenError('The token names no issuer (`iss`).');
    // Only an allowed issuer that an active publisher trusts is ever fetched.
    const trusting =
      issuer.length <= 255 && this.allowedIssuers.has(issuer)
        ? await ctx.em.find(TrustedPublisher, { issuer, isActive: true }, { orderBy: { id: 'asc' } })
        : [];
    if (!trusting.length) {
      throw errors.forbidden(`No trusted publisher trusts the issuer ${JSON.stringify(issuer.slice(0, 255))}.`);
    }
    // The network: outside any transaction. The named add-on is looked at only once the token is
    // verified: a forged token learns nothing about it.
    const claims = await this.verify(token, issuer, [...new Set(trusting.map((p) => p.audience))]);
    const candidates = named === null ? trusting : await this.publishersOf(ctx, named, trusting);
    const matchingIds = matches(candidates, claims).map((p) => p.id);
    if (named !== null && !matchingIds.length) throw notCovered();
    return ctx.em.transactional(async (tx) => {
      // Re-read: a publisher removed while the keys were fetched issues nothing.
      const matching = matchingIds.length
        ? matches(
            await tx.find(TrustedPublisher, { id: { $in: matchingIds }, isActive: true }, { orderBy: { id: 'asc' } }),
            claims,
          )
        : [];
      if (!matching.length) {
        if (named !== null) throw notCovered();
        throw errors.forbidden(
          `The token's claims match no trusted publisher of ${issuer}` +
            (typeof claims.sub === 'string' ? ` (sub: ${JSON.stringify(claims.sub.slice(0, 255))}).` : '.'),
        );
      }
      return this.issue(tx as EntityManager, token, issuer, claims, matching);
    });
  }

  /** The publishers (of `trusting`) of the named add-on; none when it is unknown or deleted. */
  private async publishersOf(
    ctx: RequestContext,
    identifier: string,
    trusting: TrustedPublisher[],
  ): Promise<TrustedPublisher[]> {
    const addon = await this.catalogue.lookup(ctx, identifier);
    if (!addon || isDeletedAddon(addon)) return [];
    return trusting.filter((p) => p.addon.id === addon.id);
  }

  /** The writes, in the exchange's transaction: the replay record, the key, last used, the audit entry. */
  private async issue(
    em: EntityManager,
    token: string,
    issuer: string,
    claims: JWTPayload,
    matching: TrustedPublisher[],
  ): Promise<IssuedTrustedKey> {
    const usable = await this.usable(em, matching);
    if (!usable.length) {
      throw errors.forbidden(
        'The matching trusted publishers cannot publish: the user who added them is no longer an author, ' +
          'or the add-on is deleted.',
      );
    }
    const addonIds = [...new Set(usable.map((p) => p.addon.id))];
    if (addonIds.length > 1) {
      // Only without `addon`: publishers of other add-ons (anyone's) match the same claims.
      throw errors.field(
        'addon',
        'The token matches trusted publishers of several add-ons: name the add-on to publish ' +
          '(`addon`: its id, slug or guid).',
      );
    }
    const [addonId] = addonIds;
    await this.consume(em, token, issuer, claims);

    // Publishers of one add-on were all added by its owners: the key acts as the first one's user.
    const user = await em.findOneOrFail(User, usable[0].user.id);
    const expiresAt = new Date(Date.now() + this.options.keySeconds * 1000);
    const publisherIds = usable.map((p) => p.id);
    const issued = await this.apiKeys.issueScoped(em, user, {
      kind: 'trusted-publishing',
      name: `Trusted publisher ${publisherIds.map((id) => `#${id}`).join(', ')}`.slice(0, 100),
      addonIds: [addonId],
      operations: [...ISSUED_OPERATIONS],
      expiresAt,
      trustedPublisherIds: publisherIds,
    });
    const now = new Date();
    for (const publisher of usable) publisher.lastUsedAt = now;
    await em.flush();
    await this.lifecycle.recordTrustedPublishing(em, addonId, {
      change: 'keyIssued',
      actorId: user.id,
      details: {
        key: issued.key,
        expiresAt: expiresAt.toISOString(),
        publishers: publisherIds,
        issuer,
        sub: typeof claims.sub === 'string' ? claims.sub.slice(0, 255) : null,
        jti: typeof claims.jti === 'string' ? claims.jti.slice(0, 255) : null,
      },
    });
    return { apiKey: issued.key, apiSecret: issued.secret, expiresAt };
  }

  private async verify(token: string, issuer: string, audiences: string[]): Promise<JWTPayload> {
    try {
      const remote = await this.issuers.keys(issuer);
      // The key set's own failures (unreachable, not JSON, not 200) are the issuer's, not the token's.
      const keys: JWTVerifyGetKey = async (header, input) => {
        try {
          return await remote(header, input);
        } catch (error) {
          if (error instanceof jose.JWKSNoMatchingKey || error instanceof jose.JWKSMultipleMatchingKeys) throw error;
          throw new IssuerDiscoveryError(`its key set could not be read (${(error as Error).message})`);
        }
      };
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: audiences,
        algorithms: [...OIDC_ALGORITHMS],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        requiredClaims: ['iss', 'aud', 'exp', 'iat'],
      });
      return payload;
    } catch (error) {
      if (error instanceof IssuerDiscoveryError) {
        throw tokenError(`The keys of the issuer ${issuer} could not be fetched: ${error.message}.`);
      }
      if (error instanceof jose.JWTExpired) {
        throw tokenError(error.claim === 'iat' ? 'The token is too old (`iat`).' : 'The token has expired.');
      }
      if (error instanceof jose.JWTClaimValidationFailed) {
        const claim = error.claim;
        if (claim === 'aud') throw tokenError("The token's audience (`aud`) is not one the trusted publishers expect.");
        if (claim === 'iat') throw tokenError('The token was issued in the future (`iat`).');
        if (claim === 'nbf') throw tokenError('The token is not valid yet (`nbf`).');
        throw tokenError(`The token's \`${claim}\` claim is missing or invalid.`);
      }
      if (error instanceof jose.JOSEAlgNotAllowed) {
        throw tokenError("The token's algorithm is not accepted (asymmetric signatures only).");
      }
      if (error instanceof jose.JWKSNoMatchingKey || error instanceof jose.JWSSignatureVerificationFailed) {
        throw tokenError("The token's signature does not verify with the issuer's published keys.");
      }
      if (error instanceof jose.JOSEError) throw tokenError('The token is not a valid signed JWT.');
      throw error;
    }
  }

  /** Publishers whose user may still act for the add-on: not deleted, an author; the add-on not deleted. */
  private async usable(em: EntityManager, publishers: TrustedPublisher[]): Promise<TrustedPublisher[]> {
    await em.populate(publishers, ['addon', 'user']);
    const out: TrustedPublisher[] = [];
    for (const publisher of publishers) {
      if (publisher.user.deleted || isDeletedAddon(publisher.addon)) continue;
      if (await isUserAuthor(em, publisher.addon.id, publisher.user.id)) out.push(publisher);
    }
    return out;
  }

  /**
   * Records the token as exchanged until it expires; refuses one already recorded. In the writes'
   * transaction: the insert waits for a concurrent exchange of the same token and then conflicts,
   * and a refused exchange consumes nothing. A token without `jti` is known by its signed part
   * (header and payload as sent, which the signature fixes), not by its text: the signature has
   * other spellings (unused bits of its last base64url character; ECDSA's (r, n - s)) that verify
   * just as well.
   */
  private async consume(em: EntityManager, token: string, issuer: string, claims: JWTPayload): Promise<void> {
    const identity =
      typeof claims.jti === 'string' && claims.jti
        ? `jti\n${issuer}\n${claims.jti}`
        : `signed\n${token.slice(0, token.lastIndexOf('.'))}`;
    const digest = createHash('sha256').update(identity).digest('hex');
    const expiresAt = new Date((claims.exp! + CLOCK_TOLERANCE_SECONDS) * 1000);
    await executeSql(em, 'delete from trusted_publishing_tokens where expires_at < now()');
    const inserted = await executeSql<{ digest: string }[]>(
      em,
      'insert into trusted_publishing_tokens (digest, expires_at) values (?, ?) on conflict do nothing returning digest',
      [digest, expiresAt],
    );
    if (!inserted.length) throw tokenError('This token has already been exchanged.');
  }
}

/** The `addon` an exchange names: null when absent (or blank); length-checked. */
function namedAddon(addon: string | null | undefined): string | null {
  if (addon === null || addon === undefined) return null;
  const tooLong = lengthProblem(addon, TRUSTED_PUBLISHING_TEXT_LIMITS.oidcExchangeAddon);
  if (tooLong) throw errors.field('addon', tooLong);
  const trimmed = addon.trim();
  return trimmed ? trimmed : null;
}

/**
 * The one answer for a named add-on the token does not cover, whatever the reason (unknown, not
 * visible, deleted, no publisher of the issuer, claims that do not match): it tells nothing about
 * the add-on.
 */
const notCovered = () =>
  errors.forbidden(
    "The token matches no trusted publisher of this add-on (check the add-on named and the publisher's issuer, " +
      'audience and claims).',
  );

/** The publishers whose audience and every required claim the verified token matches (exact string equality). */
function matches(publishers: TrustedPublisher[], claims: JWTPayload): TrustedPublisher[] {
  const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
  return publishers.filter(
    (p) =>
      audiences.includes(p.audience) &&
      Object.entries(p.requiredClaims).every(([claim, value]) => claims[claim] === value),
  );
}
