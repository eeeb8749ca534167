import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestContext } from '../core/context.js';

/**
 * A rule about the object an operation acts on ("an owner of the add-on"), as a value: the one
 * function that enforces it (it throws the rule's error when the caller fails it, and may answer
 * what it loaded), with its name and the description the schema states. It lives in the
 * aggregate's access module (`catalogue/addon-access.ts`, `collections/collections.access.ts`, …);
 * an operation declares it with `@Requires(objectRule(rule))`, and the code that loads the object
 * calls it at the point the rule is decided (after a 404 for an unknown object, before or after
 * input checks as the operation always answered). The executor checks that every rule an operation
 * declares ran before a successful answer (`enforceRequirements`): the declaration and the
 * enforcement cannot drift apart.
 */
export interface ObjectRule<A extends unknown[] = never[], R = unknown> {
  (ctx: RequestContext, ...args: A): R;
  /** `aggregate.rule`, unique. */
  readonly ruleName: string;
  /** What the schema's "Requires:" line says of it. */
  readonly description: string;
  /**
   * The rule over each of a list's objects (one argument each), answers in order: for list
   * operations, where an empty list is the rule applied to nothing.
   */
  each(ctx: RequestContext, subjects: readonly A[0][]): Promise<Awaited<R>[]>;
}

/** Any object rule, whatever it takes and answers. */
export type AnyObjectRule = ObjectRule<any[], unknown>;

const declared = new Map<string, AnyObjectRule>();
/** The rules that ran in the current root field's resolution (see `runAudited`). */
const ran = new AsyncLocalStorage<Set<AnyObjectRule>>();

/** Defines an object rule: `check` throws the rule's error when the caller fails it. */
export function defineObjectRule<A extends unknown[], R>(
  ruleName: string,
  description: string,
  check: (ctx: RequestContext, ...args: A) => R,
): ObjectRule<A, R> {
  if (declared.has(ruleName)) throw new Error(`Object rule ${ruleName} is defined twice`);
  const rule = ((ctx: RequestContext, ...args: A): R => {
    ran.getStore()?.add(rule);
    return check(ctx, ...args);
  }) as ObjectRule<A, R>;
  const each = (ctx: RequestContext, subjects: readonly A[0][]) => {
    ran.getStore()?.add(rule);
    return Promise.all(subjects.map((subject) => check(ctx, ...([subject] as A))));
  };
  Object.defineProperties(rule, {
    ruleName: { value: ruleName, enumerable: true },
    description: { value: description, enumerable: true },
    each: { value: each },
  });
  declared.set(ruleName, rule);
  return rule;
}

/** Every object rule defined so far (the access modules define theirs when imported). */
export function definedObjectRules(): readonly AnyObjectRule[] {
  return [...declared.values()];
}

/**
 * Runs a root field's resolver and, once it answered, checks that each of `rules` ran: a rule
 * declared and not enforced is an internal error, never an answer (fail closed). A refusal (the
 * resolver throwing or rejecting) passes through untouched.
 */
export function runAudited<T>(field: string, rules: readonly AnyObjectRule[], resolve: () => T): Promise<Awaited<T>> {
  const seen = new Set<AnyObjectRule>();
  return ran.run(seen, async (): Promise<Awaited<T>> => {
    const answer = await resolve();
    const missed = rules.filter((rule) => !seen.has(rule));
    if (missed.length) {
      throw new Error(`${field} answered without enforcing ${missed.map((r) => r.ruleName).join(', ')}`);
    }
    return answer;
  });
}
