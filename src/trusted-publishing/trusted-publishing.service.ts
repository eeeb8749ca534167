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
import { ApiKey } from '../auth/api-key.entity.js';
import type { ApiKeysService } from '../auth/api-keys.service.js';
import { KeyOperation } from '../auth/key-scopes.js';
import { isDeletedAddon, isUserAuthor } from '../catalogue/addon-access.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { LifecyclePolicy } from '../catalogue/lifecycle/lifecycle.policy.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { executeSql } from '../db/sql.js';
import { IssuerDiscoveryError, OIDC_ALGORITHMS, OidcIssuers } from './oidc.js';
import { TrustedPublisher } from './trusted-publisher.entity.js';

/** Active publishers one add-on may have. */
export const MAX_PUBLISHERS_PER_ADDON = 20;
/** Claims one publisher may require. */
export const MAX_REQUIRED_CLAIMS = 10;
/** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds. */
export const CLOCK_TOLERANCE_SECONDS = 30;
/**
 * Oldest token exchanged (`iat`), in seconds: GitLab mints a job's ID token when the job starts,
 * so a release job that builds first exchanges it minutes later.
 */
export const MAX_TOKEN_AGE_SECONDS = 3600;
/** The operation families of an issued key: submit versions and read their status. */
const ISSUED_OPERATIONS = [KeyOperation.UPLOAD, KeyOperation.STATUS];

export const GITHUB_ISSUER = 'https://token.actions.githubusercontent.com';
export const GITLAB_ISSUER = 'https://gitlab.com';

/**
 * What a known issuer's publishers must require, so that a publisher cannot trust every project of
 * a CI provider: every claim of `all`, and one of `oneOf` (when not empty).
 */
const ISSUER_PRESETS: Record<string, { name: string; all: string[]; oneOf: string[] }> = {
  [GITHUB_ISSUER]: { name: 'GitHub Actions', all: ['repository'], oneOf: ['workflow_ref', 'job_workflow_ref'] },
  [GITLAB_ISSUER]: { name: 'GitLab', all: ['project_path'], oneOf: [] },
};

/** Claims that say nothing about who sent the token (checked otherwise, or per token). */
const RESERVED_CLAIMS = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'jti']);
const CLAIM_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
/** A JWS in compact form: three base64url parts. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export interface TrustedPublishingOptions {
  /** Issuers owners may trust (exact URLs); only these are ever fetched. */
  issuers: readonly string[];
  allowInsecureIssuers: boolean;
  /** The `aud` a publisher expects unless its owner names another. */
  defaultAudience: string;
  /** Lifetime of an issued key, in seconds. */
  keySeconds: number;
}

export interface TrustedPublisherRecord {
  readonly id: number;
  readonly addonId: number;
  readonly issuer: string;
  readonly audience: string;
  readonly requiredClaims: { claim: string; value: string }[];
  readonly userId: number;
  readonly created: Date;
  readonly lastUsed: Date | null;
}

export interface TrustedPublisherInput {
  addon: string;
  issuer: string;
  audience?: string | null;
  requiredClaims: readonly { claim: string; value: string }[];
}

export interface IssuedTrustedKey {
  apiKey: string;
  apiSecret: string;
  expiresAt: Date;
}

const tokenError = (message: string) => errors.authenticationFailed(message, 'ERROR_INVALID_OIDC_TOKEN');

/**
 * Trusted publishing: owners of an add-on trust a CI provider's OIDC issuer and claims of its ID
 * tokens (`TrustedPublisher`); CI exchanges such a token for a short-lived API key scoped to the
 * add-on (families `upload` and `status`), acting as the owner who added the publisher.
 *
 * An exchange: the token is length- and shape-checked, its (unverified) `iss` must be an allowed
 * issuer some active publisher trusts (nothing is fetched otherwise), then its signature and
 * `iss`, `aud`, `exp`, `nbf`, `iat` are verified against the issuer's published keys. The active
 * publishers of that issuer whose audience and every required claim match (exact string equality)
 * are the token's; they must act as one user, still an author of each add-on. One key is issued,
 * scoped to their add-ons; the token cannot be exchanged again (its `jti`, or its hash, is kept
 * until it expires); each add-on's audit log records the exchange.
 */
export class TrustedPublishingService {
  private readonly policy: LifecyclePolicy;
  private readonly allowedIssuers: ReadonlySet<string>;

  constructor(
    catalogue: CatalogueService,
    private readonly apiKeys: ApiKeysService,
    private readonly lifecycle: AddonLifecycle,
    private readonly options: TrustedPublishingOptions,
    private readonly issuers: OidcIssuers = new OidcIssuers({
      ttlMs: 10 * 60_000,
      timeoutMs: 5_000,
      allowInsecure: options.allowInsecureIssuers,
    }),
  ) {
    this.policy = new LifecyclePolicy(catalogue);
    this.allowedIssuers = new Set(options.issuers);
  }

  // ---- Management (owners of the add-on, sessions) ----

  async list(ctx: RequestContext, addon: string): Promise<TrustedPublisherRecord[]> {
    const owned = await this.policy.owned(ctx, addon, false);
    const publishers = await ctx.em.find(
      TrustedPublisher,
      { addon: owned.id, isActive: true },
      { orderBy: { id: 'asc' } },
    );
    return publishers.map(record);
  }

  async add(ctx: RequestContext, input: TrustedPublisherInput): Promise<TrustedPublisherRecord> {
    const owned = await this.policy.owned(ctx, input.addon, false);
    const values = this.validate(input);
    const active = await ctx.em.find(TrustedPublisher, { addon: owned.id, isActive: true });
    if (active.length >= MAX_PUBLISHERS_PER_ADDON) {
      throw errors.validation({
        non_field_errors: [`An add-on can have at most ${MAX_PUBLISHERS_PER_ADDON} trusted publishers.`],
      });
    }
    const same = active.find(
      (p) =>
        p.issuer === values.issuer &&
        p.audience === values.audience &&
        sameClaims(p.requiredClaims, values.requiredClaims),
    );
    if (same) throw errors.validation({ non_field_errors: ['This add-on already trusts this publisher.'] });
    const publisher = ctx.em.create(TrustedPublisher, {
      addon: owned,
      user: ctx.em.getReference(User, ctx.viewer.userId!),
      ...values,
      isActive: true,
      created: new Date(),
    });
    await ctx.em.flush();
    await this.lifecycle.recordTrustedPublishing(ctx.em, owned.id, {
      change: 'added',
      actorId: ctx.viewer.userId,
      details: snapshot(publisher),
    });
    return record(publisher);
  }

  /** Deactivates the publisher and revokes the keys issued for it. 404 when unknown or already removed. */
  async remove(ctx: RequestContext, id: number): Promise<boolean> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const publisher = await ctx.em.findOne(TrustedPublisher, { id, isActive: true });
    if (!publisher) throw errors.notFound();
    await this.policy.owned(ctx, String(publisher.addon.id), false);
    publisher.isActive = false;
    await ctx.em.flush();
    await ctx.em.nativeUpdate(ApiKey, { trustedPublisherId: publisher.id, isActive: true }, { isActive: null });
    await this.lifecycle.recordTrustedPublishing(ctx.em, publisher.addon.id, {
      change: 'removed',
      actorId: ctx.viewer.userId,
      details: snapshot(publisher),
    });
    return true;
  }

  private validate(input: TrustedPublisherInput) {
    const problems = new FieldErrorCollector();
    const issuer = this.validIssuer(problems, input.issuer);
    let audience = this.options.defaultAudience;
    if (input.audience != null) {
      if (!problems.check('audience', lengthProblem(input.audience, 'trustedPublisherIssuer'))) {
        audience = input.audience.trim();
        if (!audience) problems.add('audience', fieldMessages.required);
      }
    }
    const requiredClaims: Record<string, string> = {};
    if (!input.requiredClaims.length) {
      problems.add('requiredClaims', 'At least one claim is required (e.g. `repository`).');
    } else if (input.requiredClaims.length > MAX_REQUIRED_CLAIMS) {
      problems.add('requiredClaims', `At most ${MAX_REQUIRED_CLAIMS} claims.`);
    } else {
      for (const { claim, value } of input.requiredClaims) {
        if (problems.check('requiredClaims', lengthProblem(claim, 'trustedPublisherClaim'))) continue;
        if (problems.check('requiredClaims', lengthProblem(value, 'trustedPublisherClaimValue'))) continue;
        if (!CLAIM_NAME.test(claim)) problems.add('requiredClaims', `Not a claim name: ${JSON.stringify(claim)}.`);
        else if (RESERVED_CLAIMS.has(claim)) {
          problems.add('requiredClaims', `The claim \`${claim}\` is checked on every token; it cannot be required.`);
        } else if (claim in requiredClaims) problems.add('requiredClaims', `The claim \`${claim}\` is listed twice.`);
        else if (!value) problems.add('requiredClaims', `The claim \`${claim}\` needs a value.`);
        else requiredClaims[claim] = value;
      }
    }
    const preset = issuer ? ISSUER_PRESETS[issuer] : undefined;
    if (preset && !problems.has('requiredClaims')) {
      const missing = preset.all.filter((claim) => !(claim in requiredClaims));
      if (missing.length || (preset.oneOf.length && !preset.oneOf.some((claim) => claim in requiredClaims))) {
        const oneOf = preset.oneOf.length ? ` and one of ${preset.oneOf.map((c) => `\`${c}\``).join(', ')}` : '';
        problems.add(
          'requiredClaims',
          `${preset.name} publishers must require ${preset.all.map((c) => `\`${c}\``).join(', ')}${oneOf}.`,
        );
      }
    }
    if (problems.has()) throw errors.validation(problems.fields);
    return { issuer: issuer!, audience, requiredClaims };
  }

  private validIssuer(problems: FieldErrorCollector, value: string): string | null {
    if (problems.check('issuer', lengthProblem(value, 'trustedPublisherIssuer'))) return null;
    const issuer = value.trim();
    let url: URL;
    try {
      url = new URL(issuer);
    } catch {
      return problems.add('issuer', fieldMessages.url);
    }
    const protocols = this.options.allowInsecureIssuers ? ['https:', 'http:'] : ['https:'];
    if (!protocols.includes(url.protocol)) return problems.add('issuer', 'The issuer must be an https URL.');
    if (url.username || url.password || url.search || url.hash) {
      return problems.add('issuer', 'The issuer URL cannot have credentials, a query or a fragment.');
    }
    if (!this.allowedIssuers.has(issuer)) {
      return problems.add(
        'issuer',
        `This service does not accept tokens of this issuer; it accepts: ${[...this.allowedIssuers].join(', ')}.`,
      );
    }
    return issuer;
  }

  // ---- The exchange (no credentials) ----

  async exchange(ctx: RequestContext, token: string | null | undefined): Promise<IssuedTrustedKey> {
    if (typeof token !== 'string' || !token) throw errors.field('token', fieldMessages.required);
    const tooLong = lengthProblem(token, 'oidcToken');
    if (tooLong) throw errors.field('token', tooLong);
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
    const publishers =
      issuer.length <= 255 && this.allowedIssuers.has(issuer)
        ? await ctx.em.find(TrustedPublisher, { issuer, isActive: true }, { orderBy: { id: 'asc' } })
        : [];
    if (!publishers.length) {
      throw errors.forbidden(`No trusted publisher trusts the issuer ${JSON.stringify(issuer.slice(0, 255))}.`);
    }
    const claims = await this.verify(token, issuer, [...new Set(publishers.map((p) => p.audience))]);
    const audiences = typeof claims.aud === 'string' ? [claims.aud] : (claims.aud ?? []);
    const matching = publishers.filter(
      (p) =>
        audiences.includes(p.audience) &&
        Object.entries(p.requiredClaims).every(([claim, value]) => claims[claim] === value),
    );
    if (!matching.length) {
      throw errors.forbidden(
        `The token's claims match no trusted publisher of ${issuer}` +
          (typeof claims.sub === 'string' ? ` (sub: ${JSON.stringify(claims.sub.slice(0, 255))}).` : '.'),
      );
    }
    const usable = await this.usable(ctx.em, matching);
    if (!usable.length) {
      throw errors.forbidden(
        'The matching trusted publishers cannot publish: the user who added them is no longer an author, ' +
          'or the add-on is deleted.',
      );
    }
    const userIds = new Set(usable.map((p) => p.user.id));
    if (userIds.size > 1) {
      throw errors.forbidden(
        'The token matches trusted publishers added by different users; a key acts as one user. Require more ' +
          'claims (e.g. `workflow_ref`, `environment`) so that a token matches the publishers of one user.',
      );
    }
    await this.consume(ctx.em, token, issuer, claims);

    const user = await ctx.em.findOneOrFail(User, usable[0].user.id);
    const addonIds = [...new Set(usable.map((p) => p.addon.id))].sort((a, b) => a - b);
    const expiresAt = new Date(Date.now() + this.options.keySeconds * 1000);
    const issued = await this.apiKeys.issueScoped(ctx.em, user, {
      kind: 'trusted-publishing',
      name: `Trusted publisher ${usable.map((p) => `#${p.id}`).join(', ')}`.slice(0, 100),
      addonIds,
      operations: [...ISSUED_OPERATIONS],
      expiresAt,
      trustedPublisherId: usable[0].id,
    });
    const now = new Date();
    for (const publisher of usable) publisher.lastUsedAt = now;
    await ctx.em.flush();
    for (const addonId of addonIds) {
      await this.lifecycle.recordTrustedPublishing(ctx.em, addonId, {
        change: 'keyIssued',
        actorId: user.id,
        details: {
          key: issued.key,
          expiresAt: expiresAt.toISOString(),
          publishers: usable.filter((p) => p.addon.id === addonId).map((p) => p.id),
          issuer,
          sub: typeof claims.sub === 'string' ? claims.sub.slice(0, 255) : null,
          jti: typeof claims.jti === 'string' ? claims.jti.slice(0, 255) : null,
        },
      });
    }
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
   * Records the token as exchanged until it expires; refuses one already recorded. In the
   * operation's transaction: a refused exchange consumes nothing.
   */
  private async consume(em: EntityManager, token: string, issuer: string, claims: JWTPayload): Promise<void> {
    const identity = typeof claims.jti === 'string' && claims.jti ? `jti\n${issuer}\n${claims.jti}` : `token\n${token}`;
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

function record(publisher: TrustedPublisher): TrustedPublisherRecord {
  return {
    id: publisher.id,
    addonId: publisher.addon.id,
    issuer: publisher.issuer,
    audience: publisher.audience,
    requiredClaims: Object.entries(publisher.requiredClaims).map(([claim, value]) => ({ claim, value })),
    userId: publisher.user.id,
    created: publisher.created,
    lastUsed: publisher.lastUsedAt,
  };
}

function snapshot(publisher: TrustedPublisher): Record<string, unknown> {
  return {
    publisher: publisher.id,
    issuer: publisher.issuer,
    audience: publisher.audience,
    requiredClaims: publisher.requiredClaims,
  };
}

function sameClaims(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => b[key] === a[key]);
}
