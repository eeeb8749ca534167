import type { GraphQLFieldConfig, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { Extensions } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { declaredSchemes } from './credentials.js';
import { fieldKeyScope, keyScopeProblem } from './key-scopes.js';
import { definedObjectRules, runAudited, type AnyObjectRule } from './object-rules.js';
import type { Permission } from './permissions.js';

/**
 * What a query or mutation requires of its caller, declared beside `@Accepts` on the resolver
 * method. Sign-in and permissions are checked before the resolver runs, for both APIs (REST routes
 * run the same schema): see `enforceRequirements`. An object rule ("an owner of the add-on") is a
 * function of the aggregate's access module (`object-rules.ts`), called where the object is loaded;
 * the executor refuses to answer when a declared rule did not run.
 */
export interface Requirement {
  /** Anonymous callers are refused (401). */
  readonly signIn: boolean;
  /** Callers with none of these are refused (403); any one suffices. Empty: no permission needed. */
  readonly anyOf: readonly Permission[];
  /** The object rules' descriptions, joined ("; "); null when none. */
  readonly rule: string | null;
  /** The object rules, each run by the code that loads the object (checked by the executor). */
  readonly rules: readonly AnyObjectRule[];
  /** Object rules that apply only with some input (`when`), run by the same code when it is given. */
  readonly conditional: readonly AnyObjectRule[];
  /**
   * A session must have proved a second factor when the service requires one (403 with the
   * original's two-factor message otherwise); API keys pass (CI keeps working once keys exist).
   */
  readonly secondFactor: boolean;
}

/** One part of a requirement: `PUBLIC`, `SIGN_IN`, `anyOf(...)` or `objectRule(...)`. */
export type RequirementPart = { readonly kind: 'public' } | Partial<Requirement>;

/** Nothing: anyone, signed in or not. */
export const PUBLIC: RequirementPart = { kind: 'public' };
/** A signed-in caller (401 otherwise). */
export const SIGN_IN: RequirementPart = { signIn: true };
/** A signed-in caller (401 otherwise) with at least one of these permissions (403 otherwise). */
export const anyOf = (first: Permission, ...rest: Permission[]): RequirementPart => ({
  signIn: true,
  anyOf: [first, ...rest],
});
/**
 * A signed-in caller whose session proved a second factor, when SIGNIN_REQUIRE_SECOND_FACTOR is on:
 * what publishes (uploads, API keys, trusted publishers, webhooks).
 */
export const SECOND_FACTOR: RequirementPart = { secondFactor: true };
/**
 * A rule about the object asked for: a function of the aggregate's access module
 * (`defineObjectRule`), which the operation's code calls and the executor checks ran. Only such a
 * value is accepted: a rule written as text, which nothing would enforce, cannot be declared.
 */
export function objectRule(rule: AnyObjectRule, options: ObjectRuleOptions = {}): RequirementPart {
  if (!definedObjectRules().includes(rule)) throw new Error('objectRule takes a rule made by defineObjectRule');
  const { note, when } = options;
  const description = rule.description + (note ?? '') + (when ? ` ${when}` : '');
  // A rule that applies only with some input is not required to run on every answer.
  return when ? { rule: description, conditional: [rule] } : { rule: description, rules: [rule] };
}

export interface ObjectRuleOptions {
  /** What this operation adds to the rule's description (the arguments it passes), appended as is. */
  readonly note?: string;
  /** The input the rule applies to (`for isDisabled`): it runs only when that is given. */
  readonly when?: string;
}

const EXTENSION = 'requirement';

/** The requirement the parts make together. */
export function requirement(parts: readonly RequirementPart[]): Requirement {
  if (!parts.length) throw new Error('@Requires needs at least one part (PUBLIC for none)');
  if (parts.length > 1 && parts.includes(PUBLIC)) throw new Error('@Requires: PUBLIC combines with nothing');
  let signIn = false;
  let secondFactor = false;
  const permissions: Permission[] = [];
  const descriptions: string[] = [];
  const rules: AnyObjectRule[] = [];
  const conditional: AnyObjectRule[] = [];
  for (const part of parts) {
    if ('kind' in part) continue;
    signIn ||= part.signIn === true;
    secondFactor ||= part.secondFactor === true;
    permissions.push(...(part.anyOf ?? []));
    // "signed in" is said once, by the first rule.
    if (part.rule) descriptions.push(descriptions.length ? part.rule.replace(/^signed in; /, '') : part.rule);
    rules.push(...(part.rules ?? []));
    conditional.push(...(part.conditional ?? []));
  }
  return {
    signIn,
    anyOf: permissions,
    rule: descriptions.length ? descriptions.join('; ') : null,
    rules,
    conditional,
    secondFactor,
  };
}

/**
 * Declares what a root query or mutation requires of its caller (a test checks every one does):
 * `@Requires(PUBLIC)`, `@Requires(SIGN_IN)`, `@Requires(anyOf(Permission.REVIEWS_ADMIN))`,
 * `@Requires(SIGN_IN, objectRule(manageAddonAuthors))`.
 */
export const Requires = (...parts: RequirementPart[]) => Extensions({ [EXTENSION]: requirement(parts) });

/** The requirement a field declares, if any. */
export function fieldRequirement(field: { extensions?: Record<string, unknown> | null }): Requirement | undefined {
  return field.extensions?.[EXTENSION] as Requirement | undefined;
}

/** The line appended to a root field's description, e.g. "Requires: sign-in; one of A, B." */
export function describeRequirement(req: Requirement): string {
  const parts: string[] = [];
  if (req.signIn) parts.push(req.secondFactor ? 'sign-in (a second factor when required)' : 'sign-in');
  if (req.anyOf.length === 1) parts.push(req.anyOf[0]);
  else if (req.anyOf.length) parts.push(`one of ${req.anyOf.join(', ')}`);
  // A rule that says "signed in; …" says it once beside a declared sign-in.
  const rule = req.signIn ? req.rule?.replace(/^signed in; /, '') : req.rule;
  if (rule) parts.push(`${rule} (object rule)`);
  return `Requires: ${parts.length ? parts.join('; ') : 'nothing (public)'}.`;
}

type RootField = Pick<GraphQLFieldConfig<unknown, RequestContext>, 'resolve'> & {
  description?: string | null;
  extensions?: Record<string, unknown> | null;
};

/**
 * Checks each root field's declared sign-in and permissions before its resolver (the errors and
 * messages the services answered with before), and appends the requirement to its description.
 * Called once on the built schema: both the GraphQL endpoint and the REST routes (graphql-jit
 * compiles `field.resolve`) run these wrappers. Only the root fields are wrapped, so the plain
 * fields graphql-jit reads directly stay so.
 */
export function enforceRequirements(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    if (!type) continue;
    for (const field of Object.values((type as GraphQLObjectType).getFields()) as RootField[]) {
      guardKeyScope(field);
      const req = fieldRequirement(field);
      if (!req) continue;
      const line = describeRequirement(req);
      field.description = field.description ? `${field.description}\n${line}` : line;
      auditObjectRules(field, req.rules);
      const resolve = field.resolve;
      if (!resolve || !(req.signIn || req.anyOf.length || req.secondFactor)) continue;
      field.resolve = (source, args, ctx, info) => {
        const viewer = ctx.viewer;
        // Rejected promises, as the async service methods the checks came from answered.
        if ((req.signIn || req.anyOf.length) && !viewer.isAuthenticated)
          return Promise.reject(errors.notAuthenticated());
        if (req.anyOf.length && !req.anyOf.some((p) => viewer.can(p))) return Promise.reject(errors.forbidden());
        if (req.secondFactor && viewer.secondFactorMissing) return Promise.reject(secondFactorRequired());
        return resolve(source, args, ctx, info);
      };
    }
  }
}

/** The field's resolver answers only once each of its declared object rules ran (`runAudited`). */
function auditObjectRules(field: RootField & { name?: string }, rules: readonly AnyObjectRule[]): void {
  const resolve = field.resolve;
  if (!resolve || !rules.length) return;
  const name = field.name ?? 'a root field';
  field.resolve = (source, args, ctx, info) => runAudited(name, rules, () => resolve(source, args, ctx, info));
}

/**
 * A root field accepting API keys refuses a scoped key without the field's family (`@KeyScope`,
 * src/access/key-scopes.ts) with 403 before anything else runs: the one place key families are
 * enforced, for both APIs. Sessions and full-scope keys pass untouched.
 */
function guardKeyScope(field: RootField): void {
  const resolve = field.resolve;
  if (!resolve || !declaredSchemes(field).includes('jwt')) return;
  const family = fieldKeyScope(field);
  field.resolve = (source, args, ctx, info) => {
    const problem = keyScopeProblem(ctx.viewer, family);
    if (problem) return Promise.reject(errors.forbidden(problem));
    return resolve(source, args, ctx, info);
  };
}

/**
 * The refusal of a session without a second factor: the original's message, and where to sign in
 * again with one (`login/start/?require_two_factor=1`).
 */
export function secondFactorRequired() {
  return errors.forbidden(SECOND_FACTOR_MESSAGE, {
    code: 'TWO_FACTOR_REQUIRED',
    login_url: '/api/v5/accounts/login/start/?require_two_factor=1',
  });
}

export const SECOND_FACTOR_MESSAGE = 'Two-factor authentication is required: sign in again with a second factor.';
