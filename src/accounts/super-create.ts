import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Permission } from '../access/permissions.js';
import type { RequestContext } from '../core/context.js';
import { AppError, ErrorCode, errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { Group } from './group.entity.js';
import { createUser } from './user-creation.js';
import { User } from './user.entity.js';
import { superCreateAccounts } from './accounts.access.js';
import { ACCOUNTS_TEXT_LIMITS } from './text-limits.js';

export interface SuperCreateInput {
  email?: string | null;
  username?: string | null;
  idpId?: string | null;
  /** `reviewer` or `admin`. */
  group?: string | null;
}

export interface SuperCreated {
  user: User;
  groups: Group[];
  sessionToken: string;
}

/** Rules of the groups super-create may put a test account in. */
const SUPER_CREATE_GROUPS: Record<string, string[]> = { reviewer: [Permission.ADDONS_REVIEW], admin: ['*:*'] };

/**
 * A test account (JWT callers holding `Accounts:SuperCreate`, when enabled): fake email and random
 * username unless given, optionally in a reviewer or admin group; signed in through a new session.
 * Bad parameters are UNPROCESSABLE (422).
 */
export async function superCreate(
  ctx: RequestContext,
  input: SuperCreateInput,
  setup: { enabled: boolean; startSession?: (em: EntityManager, user: User) => Promise<string> },
): Promise<SuperCreated> {
  if (!setup.enabled) throw errors.notFound();
  superCreateAccounts(ctx);
  const suffix = randomBytes(8).toString('hex');
  const username = input.username?.trim() || `super-created-${suffix}`;
  const email = input.email?.trim() || `${username}-${suffix}@addons.test.invalid`;
  const problems = new FieldErrorCollector();
  const idpTooLong = lengthProblem(input.idpId?.trim(), ACCOUNTS_TEXT_LIMITS.idpId);
  if (idpTooLong) problems.add('idp_id', idpTooLong);
  if (input.group != null && !(input.group in SUPER_CREATE_GROUPS)) {
    problems.add('group', fieldMessages.choice(input.group));
  }
  // Validated all at once: a bad group rolls the (otherwise valid) account back (the operation's
  // transaction, see src/graphql/transactions.ts).
  let created: { id: number; groups: number[] };
  try {
    const user = await createUser(ctx.em, { email, username });
    problems.throwIfAny();
    user.idpId = input.idpId?.trim() || null;
    const groups: Group[] = [];
    if (input.group) {
      const group = ctx.em.create(Group, {
        name: `Test Group ${input.group} ${user.id}`,
        rules: SUPER_CREATE_GROUPS[input.group],
        created: new Date(),
      });
      user.groups.add(group);
      groups.push(group);
    }
    await ctx.em.flush();
    created = { id: user.id, groups: groups.map((g) => g.id) };
  } catch (error) {
    const fields = error instanceof AppError && error.fields ? { ...error.fields, ...problems.fields } : null;
    if (!fields) throw error;
    throw new AppError(ErrorCode.UNPROCESSABLE, 'Invalid parameters.', { fields });
  }
  const user = await ctx.em.findOneOrFail(User, { id: created.id });
  const groups = await ctx.em.find(Group, { id: { $in: created.groups } });
  if (!setup.startSession) throw new Error('accounts: startSession is not provided');
  return { user, groups, sessionToken: await setup.startSession(ctx.em, user) };
}
