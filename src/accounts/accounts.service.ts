import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ApiKeysService, IssuedApiKey } from '../auth/api-keys.service.js';
import type { RequestContext } from '../core/context.js';
import { errors, type FieldErrors } from '../core/errors.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { permissionsByUserId } from './accounts.loaders.js';
import type { UserRecord } from './accounts.records.js';
import { Group } from './group.entity.js';
import { isValidRule } from './permissions.js';
import { User } from './user.entity.js';

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

const ANONYMOUS_USERNAME = /^anonymous-[0-9a-f]{32}$/;
const USERNAME = /^[\w-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Rules about user accounts. The accounts issue adds editing, deletion and notifications. */
export class AccountsService {
  constructor(private readonly apiKeys: ApiKeysService) {}

  /** The caller, or 401 when anonymous. */
  me(ctx: RequestContext): User {
    if (!ctx.viewer.user) throw errors.notAuthenticated();
    return ctx.viewer.user;
  }

  /** Every account, newest first (Users:Edit). */
  async list(ctx: RequestContext, page?: number | null, pageSize?: number | null): Promise<Page<User>> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!ctx.viewer.can('Users:Edit')) throw errors.forbidden();
    const request = pageRequest(page, pageSize);
    const [items, count] = await ctx.em.findAndCount(
      User,
      {},
      { orderBy: { id: 'desc' }, limit: request.limit, offset: request.offset },
    );
    return toPage(request, count, items);
  }

  async acceptDeveloperAgreement(ctx: RequestContext): Promise<User> {
    const user = this.me(ctx);
    if (!user.readDevAgreement) {
      user.readDevAgreement = new Date();
      await ctx.em.flush();
    }
    return user;
  }

  /** API keys are for developers who accepted the agreement, through a browser session. */
  async issueApiKey(ctx: RequestContext): Promise<IssuedApiKey> {
    const user = this.me(ctx);
    if (ctx.viewer.method !== 'session') throw errors.forbidden('API keys can only be managed from a session.');
    if (!user.readDevAgreement) throw errors.forbidden('User has not read developer agreement.');
    return this.apiKeys.issue(ctx.em, user);
  }

  async revokeApiKey(ctx: RequestContext): Promise<boolean> {
    const user = this.me(ctx);
    if (ctx.viewer.method !== 'session') throw errors.forbidden('API keys can only be managed from a session.');
    return this.apiKeys.revoke(ctx.em, user);
  }

  async permissionsOf(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<string[]> {
    if (ctx.viewer.is(user.id)) return [...ctx.viewer.permissions];
    return ctx.loaders.get(permissionsByUserId).load(user.id);
  }

  /** Users may see their own private fields; `Users:Edit` sees everyone's. */
  canSeePrivateFields(ctx: RequestContext, user: Pick<UserRecord, 'id'>): boolean {
    return ctx.viewer.is(user.id) || ctx.viewer.can('Users:Edit');
  }

  hasAnonymousUsername(user: Pick<UserRecord, 'username'>): boolean {
    return ANONYMOUS_USERNAME.test(user.username);
  }

  /** v4 `name`: the display name, else a generated one containing the id. */
  displayNameOrDefault(user: Pick<UserRecord, 'id' | 'displayName'>, browserName: string): string {
    return user.displayName || `${browserName} user ${user.id}`;
  }

  async createUser(em: EntityManager, input: CreateUserInput): Promise<User> {
    const problems: FieldErrors = {};
    const email = input.email?.trim().toLowerCase() ?? '';
    if (!email) problems.email = ['This field is required.'];
    else if (!EMAIL.test(email) || email.length > 255) problems.email = ['Enter a valid email address.'];
    else if (await em.count(User, { email })) problems.email = ['A user with this email address already exists.'];

    let username = input.username?.trim() || null;
    if (username !== null) {
      if (/^\d+$/.test(username)) problems.username = ['Usernames cannot contain only digits.'];
      else if (!USERNAME.test(username) || username.length > 150) {
        problems.username = ['Enter a valid username consisting of letters, numbers, underscores or hyphens.'];
      } else if (await em.count(User, { username })) problems.username = ['This username is already in use.'];
    } else {
      username = `anonymous-${randomBytes(16).toString('hex')}`;
    }

    const displayName = input.displayName?.trim() || null;
    if (displayName !== null && (displayName.length < 2 || displayName.length > 50)) {
      problems.display_name = [
        displayName.length < 2
          ? 'Ensure this field has at least 2 characters.'
          : 'Ensure this field has no more than 50 characters.',
      ];
    }

    const badRules = (input.permissions ?? []).filter((rule) => !isValidRule(rule));
    if (badRules.length)
      problems.permissions = badRules.map((r) => `"${r}" is not a permission of the form app:action.`);

    const groups: Group[] = [];
    for (const name of input.groups ?? []) {
      const group = await em.findOne(Group, { name });
      if (group) groups.push(group);
      else (problems.groups ??= []).push(`Group "${name}" does not exist.`);
    }
    if (Object.keys(problems).length) throw errors.validation(problems);

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
}
