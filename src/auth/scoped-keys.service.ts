import { KEY_OPERATIONS, isKeyOperation, type KeyOperation } from '../access/key-scopes.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import type { User } from '../accounts/user.entity.js';
import { SESSION_ONLY, developerAgreement, manageKeys } from '../accounts/accounts.access.js';
import { keyAddonMessages, keyAddons } from '../catalogue/key-addons.access.js';
import { ACCOUNTS_TEXT_LIMITS } from '../accounts/text-limits.js';
import type { ApiKey } from './api-key.entity.js';
import type { ApiKeysService, IssuedApiKey } from './api-keys.service.js';

/** At most this many active scoped keys per user. */
export const MAX_SCOPED_KEYS = 20;
/** A scoped key expires at most this many days after its creation. */
export const MAX_KEY_DAYS = 366;
/** Without an expiry given, a scoped key expires this many days after its creation. */
export const DEFAULT_KEY_DAYS = 90;
export { MAX_KEY_ADDONS } from '../catalogue/key-addons.access.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface CreateScopedKeyInput {
  name: string;
  /** Add-on ids; null: every add-on of the user (and new ones). */
  addons?: readonly string[] | null;
  /** Families; null: all. */
  operations?: readonly string[] | null;
  expiresAt?: Date | null;
  expiresInDays?: number | null;
}

export const scopedKeyMessages = {
  sessionOnly: SESSION_ONLY,
  duplicateName: 'You already have an active API key with this name.',
  tooMany: `You have ${MAX_SCOPED_KEYS} active scoped API keys; revoke one first.`,
  ...keyAddonMessages,
  unknownFamily: (names: readonly string[]) =>
    `Unknown operation families: ${names.join(', ')} (known: ${KEY_OPERATIONS.join(', ')}).`,
  bothExpiries: 'Give expiresAt or expiresInDays, not both.',
  pastExpiry: 'The expiry must be in the future.',
  farExpiry: `The expiry must be at most ${MAX_KEY_DAYS} days ahead.`,
} as const;

/**
 * The caller's own API keys, managed through a browser session only, so a key never mints keys:
 * the default key (issued, replacing the previous one, and revoked), and scoped, expiring keys
 * (src/access/key-scopes.ts): listed, created (the secret is answered once) and revoked.
 */
export class ScopedKeysService {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /** API keys are for developers who accepted the agreement: a new default key, revoking the previous one. */
  async issueDefault(ctx: RequestContext): Promise<IssuedApiKey> {
    const user = this.caller(ctx);
    manageKeys(ctx);
    developerAgreement(ctx, user);
    return this.apiKeys.issue(ctx.em, user);
  }

  /** Revokes the caller's active default key; false when there was none. */
  async revokeDefault(ctx: RequestContext): Promise<boolean> {
    const user = this.caller(ctx);
    manageKeys(ctx);
    return this.apiKeys.revoke(ctx.em, user);
  }

  /** The caller's active keys of every kind, newest first (never their secrets). */
  async list(ctx: RequestContext): Promise<ApiKey[]> {
    const user = this.sessionUser(ctx);
    return this.apiKeys.listActive(ctx.em, user.id);
  }

  async create(ctx: RequestContext, input: CreateScopedKeyInput): Promise<IssuedApiKey & { apiKey: ApiKey }> {
    const user = this.sessionUser(ctx);
    const problems = new FieldErrorCollector();
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (!problems.check('name', lengthProblem(input.name, ACCOUNTS_TEXT_LIMITS.apiKeyName)) && !name) {
      problems.add('name', fieldMessages.required);
    }
    const addonIds = await keyAddons(ctx, user, input.addons ?? null, problems);
    const operations = this.checkOperations(input.operations ?? null, problems);
    const expiresAt = this.checkExpiry(input, problems);
    problems.throwIfAny();
    developerAgreement(ctx, user);

    const active = await this.apiKeys.listActive(ctx.em, user.id);
    if (active.some((k) => k.name !== null && k.name.toLowerCase() === name.toLowerCase())) {
      throw errors.field('name', scopedKeyMessages.duplicateName);
    }
    if (active.filter((k) => k.kind === 'scoped').length >= MAX_SCOPED_KEYS) {
      throw errors.forbidden(scopedKeyMessages.tooMany);
    }
    const { key, secret, apiKey } = await this.apiKeys.issueScoped(ctx.em, user, {
      kind: 'scoped',
      name,
      addonIds,
      operations,
      expiresAt,
    });
    return { key, secret, apiKey };
  }

  /** Revokes one of the caller's active keys; false when the caller has no such key (another's included). */
  async revoke(ctx: RequestContext, id: string): Promise<boolean> {
    const user = this.sessionUser(ctx);
    if (!/^[1-9][0-9]{0,9}$/.test(id) || Number(id) > 2_147_483_647) return false;
    return this.apiKeys.revokeById(ctx.em, user.id, Number(id));
  }

  private sessionUser(ctx: RequestContext): User {
    const user = this.caller(ctx);
    manageKeys(ctx);
    return user;
  }

  /** The caller, or 401 when anonymous. */
  private caller(ctx: RequestContext): User {
    if (!ctx.viewer.user) throw errors.notAuthenticated();
    return ctx.viewer.user;
  }

  private checkOperations(given: readonly string[] | null, problems: FieldErrorCollector): KeyOperation[] | null {
    if (given === null) return null;
    if (!given.length) return problems.add('operations', scopedKeyMessages.emptyList);
    const unknown = given.filter((o) => !isKeyOperation(o));
    if (unknown.length) return problems.add('operations', scopedKeyMessages.unknownFamily(unknown));
    return KEY_OPERATIONS.filter((o) => given.includes(o));
  }

  private checkExpiry(input: CreateScopedKeyInput, problems: FieldErrorCollector): Date | null {
    const now = Date.now();
    const hasAt = input.expiresAt !== null && input.expiresAt !== undefined;
    const hasDays = input.expiresInDays !== null && input.expiresInDays !== undefined;
    if (hasAt && hasDays) return problems.add('expiresAt', scopedKeyMessages.bothExpiries);
    const at = hasAt ? input.expiresAt! : new Date(now + (hasDays ? input.expiresInDays! : DEFAULT_KEY_DAYS) * DAY_MS);
    const field = hasDays ? 'expiresInDays' : 'expiresAt';
    if (Number.isNaN(at.getTime()) || at.getTime() <= now) return problems.add(field, scopedKeyMessages.pastExpiry);
    if (at.getTime() > now + MAX_KEY_DAYS * DAY_MS) return problems.add(field, scopedKeyMessages.farExpiry);
    return at;
  }
}
