import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isValidRule } from '../access/permissions.js';
import { isEmailAddress } from '../core/email.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem, maxLengthMessage } from '../core/text-limits.js';
import { USERNAME } from './account-profile.js';
import { Group } from './group.entity.js';
import { User } from './user.entity.js';
import { ACCOUNTS_TEXT_LIMITS } from './text-limits.js';

export interface CreateUserInput {
  email: string;
  username?: string | null;
  displayName?: string | null;
  /** Names of existing groups. */
  groups?: string[];
  /** Rules granted through a group of the same name (created when missing). */
  permissions?: string[];
  readDevAgreement?: boolean;
}

/**
 * A new account (administrators' `createUser`, super-create, the first sign-in): every field
 * checked at once (a unique email and username, a random anonymous username when none is given),
 * in existing groups and in a group per rule given.
 */
export async function createUser(em: EntityManager, input: CreateUserInput): Promise<User> {
  const problems = new FieldErrorCollector();
  const email = input.email?.trim().toLowerCase() ?? '';
  if (!email) problems.add('email', fieldMessages.required);
  else if (lengthProblem(email, ACCOUNTS_TEXT_LIMITS.email))
    problems.add('email', maxLengthMessage(ACCOUNTS_TEXT_LIMITS.email));
  else if (!isEmailAddress(email)) problems.add('email', fieldMessages.email);
  else if (await em.count(User, { email })) problems.add('email', 'A user with this email address already exists.');

  let username = input.username?.trim() || null;
  if (username !== null) {
    if (lengthProblem(username, ACCOUNTS_TEXT_LIMITS.username))
      problems.add('username', maxLengthMessage(ACCOUNTS_TEXT_LIMITS.username));
    else if (/^\d+$/.test(username)) problems.add('username', 'Usernames cannot contain only digits.');
    else if (!USERNAME.test(username)) {
      problems.add('username', 'Enter a valid username consisting of letters, numbers, underscores or hyphens.');
    } else if (await em.count(User, { username })) problems.add('username', 'This username is already in use.');
  } else {
    username = `anonymous-${randomBytes(16).toString('hex')}`;
  }

  const displayName = input.displayName?.trim() || null;
  const displayNameTooLong = lengthProblem(displayName, ACCOUNTS_TEXT_LIMITS.displayName);
  if (displayNameTooLong) problems.add('display_name', displayNameTooLong);
  else if (displayName !== null && displayName.length < 2) {
    problems.add('display_name', fieldMessages.minLength(2));
  }

  const badRules = (input.permissions ?? []).filter((rule) => !isValidRule(rule));
  if (badRules.length)
    problems.addAll(
      'permissions',
      badRules.map((r) => `"${r}" is not a permission of the form app:action.`),
    );

  const groups: Group[] = [];
  for (const name of input.groups ?? []) {
    const group = await em.findOne(Group, { name });
    if (group) groups.push(group);
    else problems.add('groups', `Group "${name}" does not exist.`);
  }
  problems.throwIfAny();

  for (const rule of input.permissions ?? []) {
    let group = await em.findOne(Group, { name: rule });
    if (!group) {
      group = em.create(Group, { name: rule, rules: [rule], created: new Date() });
    }
    groups.push(group);
  }

  const user = em.create(User, {
    email,
    username,
    displayName,
    readDevAgreement: input.readDevAgreement ? new Date() : null,
    created: new Date(),
    modified: new Date(),
  });
  for (const group of groups) user.groups.add(group);
  await em.flush();
  return user;
}
