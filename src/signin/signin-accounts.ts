import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity.js';
import { isEmailAddress } from '../core/email.js';
import { lengthProblem } from '../core/text-limits.js';
import { UserIdentity } from './signin.entities.js';
import { ACCOUNTS_TEXT_LIMITS } from '../accounts/text-limits.js';

/** Why an identity was not let in; the code goes to the front-end as `?error=`. */
export class SigninRefused extends Error {
  constructor(
    readonly code: SigninErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type SigninErrorCode =
  | 'ERROR_STATE_MISMATCH'
  | 'ERROR_NO_CODE'
  | 'ERROR_PROVIDER'
  | 'ERROR_AUTHENTICATION_FAILED'
  | 'ERROR_NO_PROFILE'
  | 'ERROR_EMAIL_NOT_VERIFIED'
  | 'ERROR_EMAIL_IN_USE'
  | 'ERROR_ACCOUNT_DELETED'
  | 'ERROR_LINK_INVALID';

/** Who a provider (or a mailed link) says signs in. */
export interface SignedIdentity {
  /** A provider's name, or `email-link`. */
  provider: string;
  /** The provider's `sub` (a link: none). */
  subject: string | null;
  email: string | null;
  emailVerified: boolean;
}

export type CreateAccount = (em: EntityManager, email: string) => Promise<User>;

/**
 * The account an identity signs in as: the one already linked to it (a deleted account stays
 * deleted: its identity refuses), else the account with its verified email (linked now, once: an
 * account has one identity per provider), else a new account. A link signs in the account of its
 * address, or a new one.
 */
export async function accountFor(
  em: EntityManager,
  identity: SignedIdentity,
  createAccount: CreateAccount,
): Promise<{ user: User; created: boolean }> {
  if (identity.subject !== null) {
    const known = await em.findOne(
      UserIdentity,
      { provider: identity.provider, subject: identity.subject },
      { populate: ['user'] },
    );
    if (known) {
      if (!known.user || known.user.deleted) throw deleted();
      known.lastSignIn = new Date();
      return { user: known.user, created: false };
    }
  }
  const email = identity.email?.trim().toLowerCase() ?? '';
  if (!email || lengthProblem(email, ACCOUNTS_TEXT_LIMITS.email) || !isEmailAddress(email)) {
    throw new SigninRefused('ERROR_NO_PROFILE', 'The provider did not give an email address.');
  }
  if (!identity.emailVerified) {
    throw new SigninRefused('ERROR_EMAIL_NOT_VERIFIED', 'The provider has not verified this email address.');
  }
  let user = await em.findOne(User, { email });
  let created = false;
  if (user?.deleted) throw deleted();
  if (user && identity.subject !== null) {
    const linked = await em.count(UserIdentity, { user: user.id, provider: identity.provider });
    if (linked) {
      throw new SigninRefused(
        'ERROR_EMAIL_IN_USE',
        'This email address belongs to an account signed in with another identity of this provider.',
      );
    }
  }
  if (!user) {
    user = await createAccount(em, email);
    created = true;
  }
  if (identity.subject !== null) {
    em.create(UserIdentity, {
      user,
      provider: identity.provider,
      subject: identity.subject,
      created: new Date(),
      lastSignIn: new Date(),
    });
    user.idpId ??= identity.subject;
  }
  await em.flush();
  return { user, created };
}

function deleted(): SigninRefused {
  return new SigninRefused('ERROR_ACCOUNT_DELETED', 'This account was deleted; it cannot be signed in to again.');
}
