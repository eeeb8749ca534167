import { defineObjectRule } from '../access/object-rules.js';
import { Permission } from '../access/permissions.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { accountStatsByUserId } from './accounts.loaders.js';
import type { UserRecord } from './accounts.records.js';

/**
 * Who may do what with an account and its keys: the object rules the account operations declare,
 * each called by the service where it decides.
 */

/** Users may see their own private fields; `Users:Edit` sees everyone's. */
export function seesPrivateFields(ctx: RequestContext, user: Pick<UserRecord, 'id'>): boolean {
  return ctx.viewer.is(user.id) || ctx.viewer.can(Permission.USERS_EDIT);
}

/**
 * Whether the caller may see the account's profile: deleted accounts never; the user themself and
 * `Users:Edit`; others only developers (a listed public add-on). Batched per request: nested users
 * (a rating's writer, an author) are checked this way too.
 */
export async function canViewAccount(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<boolean> {
  const stats = await ctx.loaders.get(accountStatsByUserId).load(user.id);
  if (!stats || stats.deleted) return false;
  return seesPrivateFields(ctx, user) || stats.numAddonsListed > 0;
}

/** An account is seen as `canViewAccount` says; to anyone else it does not exist (404). */
export const viewAccount = defineObjectRule(
  'user.view',
  'developers (with a listed public add-on) for anyone; other accounts for themselves and Users:Edit (NOT_FOUND otherwise)',
  async (ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<void> => {
    if (!(await canViewAccount(ctx, user))) throw errors.notFound();
  },
);

/** An account is changed by itself or `Users:Edit`; 403 otherwise (after 404 for an unknown one). */
export const editAccount = defineObjectRule(
  'user.edit',
  'the account itself or Users:Edit',
  (ctx: RequestContext, user: Pick<UserRecord, 'id'>): void => {
    if (!seesPrivateFields(ctx, user)) throw errors.forbidden();
  },
);

/** Only a browser session signs out (401 otherwise: there is no session to end). */
export const endSession = defineObjectRule('account.endSession', 'a browser session', (ctx: RequestContext): void => {
  if (!ctx.viewer.isAuthenticated || ctx.viewer.method !== 'session' || !ctx.viewer.sessionId) {
    throw errors.notAuthenticated();
  }
});

export const SESSION_ONLY = 'API keys can only be managed from a session.';

/** API keys are listed, issued and revoked through a browser session only (a key never mints keys); 403 otherwise. */
export const manageKeys = defineObjectRule('account.manageKeys', 'a browser session', (ctx: RequestContext): void => {
  if (ctx.viewer.method !== 'session') throw errors.forbidden(SESSION_ONLY);
});

/** The refusal of an account that has not accepted the developer agreement (API keys, their use). */
export const NO_DEVELOPER_AGREEMENT = 'User has not read developer agreement.';

/** API keys are for developers who accepted the agreement; 403 otherwise. */
export const developerAgreement = defineObjectRule(
  'account.developerAgreement',
  'the developer agreement',
  (_ctx: RequestContext, user: { readonly readDevAgreement: unknown }): void => {
    if (!user.readDevAgreement) throw errors.forbidden(NO_DEVELOPER_AGREEMENT);
  },
);

/** Test accounts are made by `Accounts:SuperCreate` holders (401 anonymous, 403 others), once found enabled. */
export const superCreateAccounts = defineObjectRule(
  'account.superCreate',
  'Accounts:SuperCreate, checked once super-create is found enabled',
  (ctx: RequestContext): void => {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!ctx.viewer.can(Permission.ACCOUNTS_SUPER_CREATE)) throw errors.forbidden();
  },
);
