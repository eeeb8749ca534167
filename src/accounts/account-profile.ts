import type { RequestContext } from '../core/context.js';
import type { FieldErrorCollector } from '../core/field-errors.js';
import { hasLinks } from '../core/has-links.js';
import { fieldMessages } from '../core/messages.js';
import { lengthProblem } from '../core/text-limits.js';
import { User } from './user.entity.js';
import { ACCOUNTS_TEXT_LIMITS } from './text-limits.js';

/** What an edit changes: `undefined` leaves a field alone. */
export interface AccountInput {
  biography?: string | null;
  displayName?: string | null;
  homepage?: string | null;
  location?: string | null;
  occupation?: string | null;
  /** Changed only under the legacy rule `usernameEditable` (see LegacyRules); ignored otherwise. */
  username?: string | null;
}

/** The checked values of an edit: only the fields given. */
export type ProfileChanges = Partial<Record<keyof AccountInput, string | null>>;

export const USERNAME = /^[\w-]+$/;
const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/**
 * Checks the profile fields given (problems go to `problems`, keyed by their REST names) and
 * returns their values; nothing is written.
 */
export async function checkProfile(
  ctx: RequestContext,
  user: User,
  input: AccountInput,
  problems: FieldErrorCollector,
): Promise<ProfileChanges> {
  const changes: ProfileChanges = {};
  if (input.displayName !== undefined) {
    const result = checkDisplayName(input.displayName);
    if (Array.isArray(result)) problems.addAll('display_name', result);
    else changes.displayName = result;
  }
  if (input.biography !== undefined) {
    const biography = input.biography?.trim() || null;
    const tooLong = lengthProblem(biography, ACCOUNTS_TEXT_LIMITS.biography);
    if (tooLong) problems.add('biography', tooLong);
    else if (biography && hasLinks(biography)) problems.add('biography', fieldMessages.noLinks);
    else changes.biography = biography;
  }
  if (input.homepage !== undefined) {
    const result = checkHomepage(ctx, input.homepage);
    if (Array.isArray(result)) problems.addAll('homepage', result);
    else changes.homepage = result;
  }
  for (const field of ['location', 'occupation'] as const) {
    if (input[field] === undefined) continue;
    const value = input[field]?.trim() || null;
    const tooLong = lengthProblem(value, ACCOUNTS_TEXT_LIMITS[field]);
    if (tooLong) problems.add(field, tooLong);
    else changes[field] = value;
  }
  if (ctx.legacy?.usernameEditable && input.username !== undefined) {
    const result = await checkUsername(ctx, user, input.username);
    if (Array.isArray(result)) problems.addAll('username', result);
    else changes.username = result;
  }
  return changes;
}

/** Writes checked changes to the account (the caller flushes). */
export function applyProfile(user: User, changes: ProfileChanges): void {
  if (changes.displayName !== undefined) user.displayName = changes.displayName;
  if (changes.biography !== undefined) user.biography = changes.biography;
  if (changes.homepage !== undefined) user.homepage = changes.homepage;
  if (changes.location !== undefined) user.location = changes.location;
  if (changes.occupation !== undefined) user.occupation = changes.occupation;
  if (changes.username) user.username = changes.username;
}

/** Stored trimmed; 2 to 50 characters, at least one letter, number, punctuation mark or symbol. */
export function checkDisplayName(value: string | null): string | null | string[] {
  if (value === null) return null;
  const name = value.trim();
  if (!name) return [fieldMessages.blank];
  // The length first: a name over the limit is not looked at further.
  const tooLong = lengthProblem(name, ACCOUNTS_TEXT_LIMITS.displayName);
  if (tooLong) return [tooLong];
  const problems: string[] = [];
  if (name.length < 2) problems.push(fieldMessages.minLength(2));
  if (!PRINTABLE.test(name)) problems.push('Must contain at least one printable character.');
  return problems.length ? problems : name;
}

/** An http(s)/ftp(s) URL of another site. */
function checkHomepage(ctx: RequestContext, value: string | null): string | null | string[] {
  const homepage = value?.trim() || null;
  if (homepage === null) return null;
  const tooLong = lengthProblem(homepage, ACCOUNTS_TEXT_LIMITS.homepage);
  if (tooLong) return [tooLong];
  let url: URL;
  try {
    url = new URL(homepage);
  } catch {
    return [fieldMessages.url];
  }
  const host = url.hostname;
  const validHost = host === 'localhost' || /^\[[0-9a-f:.]+\]$/i.test(host) || /^[^.\s]+(\.[^.\s]+)+$/.test(host);
  if (!['http:', 'https:', 'ftp:', 'ftps:'].includes(url.protocol) || !validHost || /\s/.test(homepage)) {
    return [fieldMessages.url];
  }
  const siteHost = new URL(ctx.request.baseUrl).hostname;
  if (host === siteHost || host.endsWith(`.${siteHost}`)) {
    return ['The homepage field can only be used to link to external websites.'];
  }
  return homepage;
}

async function checkUsername(ctx: RequestContext, user: User, value: string | null): Promise<string | string[]> {
  if (value === null) return [fieldMessages.null];
  const username = value.trim();
  if (!username) return [fieldMessages.blank];
  const tooLong = lengthProblem(username, ACCOUNTS_TEXT_LIMITS.username);
  if (tooLong) return [tooLong];
  if (/^\d+$/.test(username)) return ['Usernames cannot contain only digits.'];
  if (!USERNAME.test(username)) {
    return ['Enter a valid username consisting of letters, numbers, underscores or hyphens.'];
  }
  if (username !== user.username && (await ctx.em.count(User, { username, id: { $ne: user.id } }))) {
    return ['This username is already in use.'];
  }
  return username;
}
