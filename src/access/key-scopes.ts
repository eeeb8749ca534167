import { Extensions } from 'type-graphql';
import type { RequestViewer } from '../core/context.js';
import { errors } from '../core/errors.js';

/**
 * The operation families an API key can be limited to. A key with `scopeOperations = null` (every
 * default key, and every key made before scopes existed) may use every operation that accepts API
 * keys; a scoped key only those whose declared family it lists. Each operation that accepts API
 * keys declares its family beside `@Accepts` (enforced in one place with the credentials check).
 */
export const KeyOperation = {
  /** Submit versions and new add-ons, attach source code, roll back a release, reply to reviewers. */
  UPLOAD: 'upload',
  /** Read uploads, versions, their review state and notes; download the caller's files. */
  STATUS: 'status',
  /** Edit an add-on's listing: names, descriptions, categories, images. */
  LISTING: 'listing',
  /** Read and edit the key owner's own account; act as the account outside add-ons (abuse reports, test accounts). */
  ACCOUNT: 'account',
} as const;

export type KeyOperation = (typeof KeyOperation)[keyof typeof KeyOperation];

export const KEY_OPERATIONS: readonly KeyOperation[] = Object.values(KeyOperation);

export function isKeyOperation(value: string): value is KeyOperation {
  return (KEY_OPERATIONS as readonly string[]).includes(value);
}

const EXTENSION = 'keyScope';

/**
 * Declares, beside `@Accepts('jwt', …)`, the operation family a root field belongs to: a scoped key
 * without that family is refused (403) before the resolver runs, for both APIs
 * (`enforceRequirements` wraps the field; a test checks every field accepting API keys declares one).
 */
export const KeyScope = (family: KeyOperation) => Extensions({ [EXTENSION]: family });

/** The family a field declares, if any. */
export function fieldKeyScope(field: { extensions?: Record<string, unknown> | null }): KeyOperation | undefined {
  return field.extensions?.[EXTENSION] as KeyOperation | undefined;
}

/**
 * Why the caller's key may not run an operation of `family` (undefined: the field declares none,
 * which a scoped key is refused too), or null when it may: sessions and full-scope keys always may.
 */
export function keyScopeProblem(viewer: RequestViewer, family: KeyOperation | undefined): string | null {
  const operations = viewer.key?.operations;
  if (!operations || (family && operations.includes(family))) return null;
  const allowed = operations.length ? operations.join(', ') : 'none';
  return family
    ? `This API key may not perform "${family}" operations; it is limited to: ${allowed}.`
    : `This API key may not perform this operation; it is limited to: ${allowed}.`;
}

/**
 * The same refusal (403) for the few handlers outside GraphQL that accept API keys (the source
 * code download): they call this with their family right after authenticating.
 */
export function assertKeyScope(viewer: RequestViewer, family: KeyOperation): void {
  const problem = keyScopeProblem(viewer, family);
  if (problem) throw errors.forbidden(problem);
}

/** The refusal of an add-on a key limited to other add-ons names (creating add-ons included). */
export const keyScopeMessages = {
  newAddon: 'This API key is limited to some add-ons and may not create new ones.',
  expired: 'API key has expired.',
} as const;
