import { User } from '../accounts/user.entity.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { AddonLifecycle } from '../catalogue/lifecycle/lifecycle.service.js';
import { LifecyclePolicy } from '../catalogue/lifecycle/lifecycle.policy.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { executeSql, intArray } from '../db/sql.js';
import { TrustedPublisher } from './trusted-publisher.entity.js';
import { TRUSTED_PUBLISHING_TEXT_LIMITS } from './text-limits.js';

/** Active publishers one add-on may have. */
export const MAX_PUBLISHERS_PER_ADDON = 20;
/** Claims one publisher may require. */
export const MAX_REQUIRED_CLAIMS = 10;

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

/** Trusted publishing's settings, shared by the management and the exchange (src/services.ts). */
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

/**
 * Trusted publishers, managed by the owners of an add-on (sessions): an owner trusts a CI
 * provider's OIDC issuer (one this service allows) and claims of its ID tokens (`TrustedPublisher`),
 * acting as that owner; known issuers (GitHub, GitLab) must be narrowed to one project. Adding and
 * removing are recorded in the add-on's audit log; removing revokes every key issued for a
 * match the publisher was part of. The exchange of tokens is TokenExchangeService's (token-exchange.service.ts).
 */
export class TrustedPublishersService {
  private readonly policy: LifecyclePolicy;
  private readonly allowedIssuers: ReadonlySet<string>;

  constructor(
    catalogue: CatalogueService,
    private readonly lifecycle: AddonLifecycle,
    private readonly options: TrustedPublishingOptions,
  ) {
    this.policy = new LifecyclePolicy(catalogue);
    this.allowedIssuers = new Set(options.issuers);
  }

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

  /**
   * Deactivates the publisher and revokes every key issued for a match it was part of. 404 when
   * unknown or already removed.
   */
  async remove(ctx: RequestContext, id: number): Promise<boolean> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const publisher = await ctx.em.findOne(TrustedPublisher, { id, isActive: true });
    if (!publisher) throw errors.notFound();
    await this.policy.owned(ctx, String(publisher.addon.id), false);
    publisher.isActive = false;
    await ctx.em.flush();
    // Every active key this publisher's match issued, alone or with other publishers of the add-on.
    await executeSql(
      ctx.em,
      'update api_keys set is_active = null where is_active and trusted_publisher_ids @> ?::int[]',
      [intArray([publisher.id])],
    );
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
      if (
        !problems.check(
          'audience',
          lengthProblem(input.audience, TRUSTED_PUBLISHING_TEXT_LIMITS.trustedPublisherIssuer),
        )
      ) {
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
        if (
          problems.check('requiredClaims', lengthProblem(claim, TRUSTED_PUBLISHING_TEXT_LIMITS.trustedPublisherClaim))
        )
          continue;
        if (
          problems.check(
            'requiredClaims',
            lengthProblem(value, TRUSTED_PUBLISHING_TEXT_LIMITS.trustedPublisherClaimValue),
          )
        )
          continue;
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
    if (problems.check('issuer', lengthProblem(value, TRUSTED_PUBLISHING_TEXT_LIMITS.trustedPublisherIssuer)))
      return null;
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
