import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import type { AccountStats } from './accounts.loaders.js';
import { User } from './user.entity.js';

/** What removing an account reaches beyond its own rows: credentials, ratings' aggregates, sole add-ons. */
export interface AccountDeletionHooks {
  /**
   * Revokes the account's sessions, then its API keys (in its transaction): an anonymised account
   * keeps its row, so nothing cascades. Required where an account is anonymised.
   */
  revokeCredentials?: (em: EntityManager, user: User) => Promise<void>;
  /**
   * Takes the ratings locks of an account about to be removed (its own, then its rated add-ons'),
   * first thing in its transaction (the lock order: src/db/advisory-locks.ts); returns those add-ons.
   */
  lockRatings?: (em: EntityManager, userId: number) => Promise<number[]>;
  /** Recounts the rating columns of add-ons whose ratings were removed with an account (in its transaction). */
  recountRatings?: (em: EntityManager, addonIds: readonly number[]) => Promise<void>;
  /**
   * Deletes the add-ons (not deleted yet) the account alone authors, through the add-on lifecycle
   * (in its transaction, before the account's rows go); `actorId` is the caller.
   */
  deleteAddons?: (em: EntityManager, userId: number, actorId: number) => Promise<void>;
}

/**
 * Under the legacy rule `deletionAnonymises` (see LegacyRules): refused for add-on developers;
 * otherwise the details are cleared, the account marked deleted (ratings kept), its sessions and
 * keys revoked.
 */
export async function anonymiseAccount(
  ctx: RequestContext,
  user: User,
  stats: AccountStats | null,
  hooks: AccountDeletionHooks,
): Promise<void> {
  if (stats?.isDeveloper) {
    throw errors.badParameter(
      'Developers of add-ons or themes cannot delete their account. You must delete all add-ons and ' +
        'themes linked to this account, or transfer them to other users.',
    );
  }
  const row = await ctx.em.findOneOrFail(User, { id: user.id });
  Object.assign(row, {
    deleted: true,
    username: `anonymous-${randomBytes(16).toString('hex')}`,
    email: `deleted-${user.id}-${randomBytes(4).toString('hex')}@deleted.invalid`,
    displayName: null,
    biography: null,
    homepage: null,
    location: null,
    occupation: null,
    pictureType: null,
    pictureHash: null,
    lastLoginIp: null,
  });
  if (!hooks.revokeCredentials) throw new Error('accounts: revokeCredentials is not provided');
  await hooks.revokeCredentials(ctx.em, row);
}

/**
 * Removes the account and its data (notification preferences, ratings, collections… cascaded);
 * add-ons it alone authors are deleted through the lifecycle, shared ones keep their other authors.
 */
export async function removeAccount(ctx: RequestContext, user: User, hooks: AccountDeletionHooks): Promise<void> {
  // Before any row is touched (a rating write holding a row while waiting for these is a deadlock).
  const rated = (await hooks.lockRatings?.(ctx.em, user.id)) ?? [];
  await hooks.deleteAddons?.(ctx.em, user.id, ctx.viewer.userId!);
  // Authorships, notification preferences, sessions, keys, ratings, collections: cascaded.
  await ctx.em.nativeDelete(User, { id: user.id });
  await hooks.recountRatings?.(ctx.em, rated);
}
