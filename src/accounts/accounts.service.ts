import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import type { ApiKeysService, IssuedApiKey } from '../auth/api-keys.service.js';
import { Session } from '../auth/session.entity.js';
import type { SessionsService } from '../auth/sessions.service.js';
import { Addon, AddonUser } from '../catalogue/addon.entity.js';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { RequestContext } from '../core/context.js';
import { AppError, ErrorCode, errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import { isEmailAddress } from '../core/email.js';
import { hasLinks } from '../core/has-links.js';
import { ImageRenderer, InvalidImageError, sniffImage, type RenderedImage } from '../core/images.js';
import { readClientStream } from '../core/spool.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { TEXT_LIMITS, lengthProblem, maxLengthMessage } from '../core/text-limits.js';
import type { Storage } from '../storage/storage.port.js';
import { accountStatsByUserId, permissionsByUserId, type AccountStats } from './accounts.loaders.js';
import type { UserRecord } from './accounts.records.js';
import { Group } from './group.entity.js';
import { isValidRule } from './permissions.js';
import { ScopedKeysService } from './scoped-keys.service.js';
import { DeveloperAgreementService, type DeveloperAgreementInput } from './developer-agreement.js';
import { User } from './user.entity.js';
import { Permission } from '../auth/permissions.js';

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

export interface AccountsOptions {
  /** Largest profile picture (default 4 MB). */
  maxPictureBytes?: number;
  /** The process's image renders (queue and pixel limits); default: one of its own. */
  images?: ImageRenderer;
  /** When the developer agreement last changed (DEVELOPER_AGREEMENT_CHANGED); default: the original's fallback. */
  developerAgreementChanged?: Date | null;
  /** Whether `superCreate` is available (default false). */
  superCreateEnabled?: boolean;
  /**
   * Takes the ratings locks of an account about to be removed (its own, then its rated add-ons'),
   * first thing in its transaction (the lock order: src/db/advisory-locks.ts); returns those add-ons.
   */
  lockRatings?: (em: EntityManager, userId: number) => Promise<number[]>;
  /** Recounts the rating columns of add-ons whose ratings were removed with an account (in its transaction). */
  recountRatings?: (em: EntityManager, addonIds: readonly number[]) => Promise<void>;
  /** Deletes the add-ons an account alone authors, through the add-on lifecycle (in its transaction). */
  deleteAddons?: (em: EntityManager, addonIds: readonly number[], actorId: number) => Promise<void>;
}

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
const DEFAULT_MAX_PICTURE_BYTES = 4 * 1024 * 1024;
/**
 * Account pictures are stored as PNG (the contract: `picture_type` is only `image/png`) within
 * 200×200, aspect kept, never enlarged (the original's resize_photo).
 */
export const PICTURE_SIZE = { width: 200, height: 200 };

const ANONYMOUS_USERNAME = /^anonymous-[0-9a-f]{32}$/;
const USERNAME = /^[\w-]+$/;
const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}]/u;
const MAX_ID = 2_147_483_647;

/** Rules about user accounts: lookups, who sees and edits what, validation with the original messages. */
export class AccountsService {
  private readonly images: ImageRenderer;

  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly storage: Storage,
    private readonly sessions: SessionsService,
    private readonly options: AccountsOptions = {},
  ) {
    this.images = options.images ?? new ImageRenderer();
    this.scopedKeys = new ScopedKeysService(apiKeys);
    this.agreement = new DeveloperAgreementService(
      (value) => this.checkDisplayName(value),
      options.developerAgreementChanged ?? null,
    );
  }

  /** The developer agreement: the version in force, who accepted it, accepting it. */
  readonly agreement: DeveloperAgreementService;

  /** Scoped, expiring API keys (listed, created and revoked by their owner from a session). */
  readonly scopedKeys: ScopedKeysService;

  private get maxPictureBytes(): number {
    return this.options.maxPictureBytes ?? DEFAULT_MAX_PICTURE_BYTES;
  }

  /**
   * A test account (JWT callers holding `Accounts:SuperCreate`, when enabled): fake email and random
   * username unless given, optionally in a reviewer or admin group; signed in through a new session.
   * Bad parameters are UNPROCESSABLE (422).
   */
  async superCreate(ctx: RequestContext, input: SuperCreateInput): Promise<SuperCreated> {
    if (!this.options.superCreateEnabled) throw errors.notFound();
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    if (!ctx.viewer.can(Permission.ACCOUNTS_SUPER_CREATE)) throw errors.forbidden();
    const suffix = randomBytes(8).toString('hex');
    const username = input.username?.trim() || `super-created-${suffix}`;
    const email = input.email?.trim() || `${username}-${suffix}@addons.test.invalid`;
    const problems = new FieldErrorCollector();
    const idpTooLong = lengthProblem(input.idpId?.trim(), 'idpId');
    if (idpTooLong) problems.add('idp_id', idpTooLong);
    if (input.group != null && !(input.group in SUPER_CREATE_GROUPS)) {
      problems.add('group', fieldMessages.choice(input.group));
    }
    // Validated all at once: a bad group rolls the (otherwise valid) account back (the operation's
    // transaction, see src/graphql/transactions.ts).
    let created: { id: number; groups: number[] };
    try {
      const user = await this.createUser(ctx.em, { email, username });
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
    const { token } = await this.sessions.create(ctx.em, user);
    return { user, groups, sessionToken: token };
  }

  // Lookups and access

  /** A (not deleted) account by id (all digits) or username. */
  async findUser(ctx: RequestContext, identifier: string): Promise<User | null> {
    if (/^\d+$/.test(identifier)) {
      const id = Number(identifier);
      return id <= MAX_ID ? ctx.em.findOne(User, { id, deleted: false }) : null;
    }
    if (!USERNAME.test(identifier)) return null;
    return ctx.em.findOne(User, { username: identifier, deleted: false });
  }

  /** The catalogue statistics and picture of an account (batched per request). */
  async stats(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<AccountStats | null> {
    return ctx.loaders.get(accountStatsByUserId).load(user.id);
  }

  /** Public for developers (a listed public add-on); others only to themselves and `Users:Edit`: else 404. */
  async account(ctx: RequestContext, identifier: string): Promise<User> {
    const user = await this.findUser(ctx, identifier);
    if (!user || !(await this.canView(ctx, user))) throw errors.notFound();
    return user;
  }

  /**
   * Whether the caller may see the account's profile, as `account` decides it: deleted accounts
   * never; the user themself and `Users:Edit`; others only developers (a listed public add-on).
   * Batched: nested users (a rating's writer, an author) are checked this way.
   */
  async canView(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<boolean> {
    const stats = await this.stats(ctx, user);
    if (!stats || stats.deleted) return false;
    return this.canSeePrivateFields(ctx, user) || stats.numAddonsListed > 0;
  }

  /** The account when the caller may see it (`canView`), else null: what nested user fields return. */
  async visibleUser<T extends Pick<UserRecord, 'id'>>(ctx: RequestContext, user: T | null): Promise<T | null> {
    return user && (await this.canView(ctx, user)) ? user : null;
  }

  /**
   * An account to change: 404 unknown, 403 unless self or `Users:Edit` (anonymous callers: 401,
   * before, from the operations' `@Requires(SIGN_IN)`).
   */
  async editable(ctx: RequestContext, identifier: string): Promise<User> {
    const user = await this.findUser(ctx, identifier);
    if (!user) throw errors.notFound();
    if (!this.canSeePrivateFields(ctx, user)) throw errors.forbidden();
    return user;
  }

  // Edits

  /** Changes the given fields (and the picture), validated all at once. */
  async update(
    ctx: RequestContext,
    identifier: string,
    input: AccountInput,
    picture?: Promise<UploadedFile> | null,
  ): Promise<User> {
    const user = await this.editable(ctx, identifier);
    const problems = new FieldErrorCollector();
    const changes: Partial<Record<keyof AccountInput, string | null>> = {};

    if (input.displayName !== undefined) {
      const result = this.checkDisplayName(input.displayName);
      if (Array.isArray(result)) problems.addAll('display_name', result);
      else changes.displayName = result;
    }
    if (input.biography !== undefined) {
      const biography = input.biography?.trim() || null;
      const tooLong = lengthProblem(biography, 'biography');
      if (tooLong) problems.add('biography', tooLong);
      else if (biography && hasLinks(biography)) problems.add('biography', fieldMessages.noLinks);
      else changes.biography = biography;
    }
    if (input.homepage !== undefined) {
      const result = this.checkHomepage(ctx, input.homepage);
      if (Array.isArray(result)) problems.addAll('homepage', result);
      else changes.homepage = result;
    }
    for (const field of ['location', 'occupation'] as const) {
      if (input[field] === undefined) continue;
      const value = input[field]?.trim() || null;
      const tooLong = lengthProblem(value, field);
      if (tooLong) problems.add(field, tooLong);
      else changes[field] = value;
    }
    if (ctx.legacy?.usernameEditable && input.username !== undefined) {
      const result = await this.checkUsername(ctx, user, input.username);
      if (Array.isArray(result)) problems.addAll('username', result);
      else changes.username = result;
    }
    let image: RenderedImage | null = null;
    if (picture) {
      const result = await this.checkPicture(picture);
      if (Array.isArray(result)) problems.addAll('picture_upload', result);
      else image = result;
    }
    problems.throwIfAny();

    if (changes.displayName !== undefined) user.displayName = changes.displayName;
    if (changes.biography !== undefined) user.biography = changes.biography;
    if (changes.homepage !== undefined) user.homepage = changes.homepage;
    if (changes.location !== undefined) user.location = changes.location;
    if (changes.occupation !== undefined) user.occupation = changes.occupation;
    if (changes.username) user.username = changes.username;
    if (image) {
      const previous = this.pictureKey(user);
      const hash = createHash('sha256').update(image.data).digest('hex').slice(0, 8);
      user.pictureType = image.type;
      user.pictureHash = hash;
      const key = this.pictureKey(user)!;
      await this.storage.put(key, image.data);
      if (previous && previous !== key) await this.storage.delete(previous);
    }
    await ctx.em.flush();
    return user;
  }

  /** Removes the picture (a no-op without one). */
  async deletePicture(ctx: RequestContext, identifier: string): Promise<User> {
    const user = await this.editable(ctx, identifier);
    const key = this.pictureKey(user);
    if (key) {
      user.pictureType = null;
      user.pictureHash = null;
      await ctx.em.flush();
      await this.storage.delete(key);
    }
    return user;
  }

  /**
   * Deletes an account (self or `Users:Edit`): the account and its data (notification preferences,
   * ratings, collections…) are removed; add-ons it alone authors are deleted, shared ones keep their
   * other authors. Under the legacy rule `deletionAnonymises` (see LegacyRules): refused for add-on
   * developers; otherwise the details are cleared and the account marked deleted (ratings kept).
   * One transaction.
   */
  async deleteAccount(ctx: RequestContext, identifier: string): Promise<boolean> {
    const user = await this.editable(ctx, identifier);
    const picture = this.pictureKey(user);
    if (ctx.legacy?.deletionAnonymises) {
      const stats = await this.stats(ctx, user);
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
      await ctx.em.nativeUpdate(Session, { user: user.id, revokedAt: null }, { revokedAt: new Date() });
      await this.apiKeys.revokeAll(ctx.em, row);
    } else {
      // Before any row is touched (a rating write holding a row while waiting for these is a deadlock).
      const rated = (await this.options.lockRatings?.(ctx.em, user.id)) ?? [];
      const authored = await ctx.em.find(AddonUser, { user: user.id }, { fields: ['addon'] });
      const addonIds = authored.map((a) => a.addon.id);
      if (addonIds.length) {
        const shared = await ctx.em.find(
          AddonUser,
          { addon: { $in: addonIds }, user: { $ne: user.id } },
          { fields: ['addon'] },
        );
        const keep = new Set(shared.map((a) => a.addon.id));
        const sole = addonIds.filter((id) => !keep.has(id));
        const live = sole.length
          ? await ctx.em.find(Addon, { id: { $in: sole }, status: { $ne: AddonStatus.DELETED } }, { fields: ['id'] })
          : [];
        if (live.length) {
          await this.options.deleteAddons?.(
            ctx.em,
            live.map((a) => a.id),
            ctx.viewer.userId!,
          );
        }
      }
      // Authorships, notification preferences, sessions, keys, ratings, collections: cascaded.
      await ctx.em.nativeDelete(User, { id: user.id });
      await this.options.recountRatings?.(ctx.em, rated);
    }
    if (picture) await this.storage.delete(picture);
    return true;
  }

  /** Ends the caller's browser session (the internal scheme only). */
  async logout(ctx: RequestContext): Promise<boolean> {
    if (!ctx.viewer.isAuthenticated || ctx.viewer.method !== 'session' || !ctx.viewer.sessionId) {
      throw errors.notAuthenticated();
    }
    await ctx.em.nativeUpdate(Session, { id: ctx.viewer.sessionId, revokedAt: null }, { revokedAt: new Date() });
    return true;
  }

  /** Stored trimmed; 2 to 50 characters, at least one letter, number, punctuation mark or symbol. */
  private checkDisplayName(value: string | null): string | null | string[] {
    if (value === null) return null;
    const name = value.trim();
    if (!name) return [fieldMessages.blank];
    // The length first: a name over the limit is not looked at further.
    const tooLong = lengthProblem(name, 'displayName');
    if (tooLong) return [tooLong];
    const problems: string[] = [];
    if (name.length < 2) problems.push(fieldMessages.minLength(2));
    if (!PRINTABLE.test(name)) problems.push('Must contain at least one printable character.');
    return problems.length ? problems : name;
  }

  /** An http(s)/ftp(s) URL of another site. */
  private checkHomepage(ctx: RequestContext, value: string | null): string | null | string[] {
    const homepage = value?.trim() || null;
    if (homepage === null) return null;
    const tooLong = lengthProblem(homepage, 'homepage');
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

  private async checkUsername(ctx: RequestContext, user: User, value: string | null): Promise<string | string[]> {
    if (value === null) return [fieldMessages.null];
    const username = value.trim();
    if (!username) return [fieldMessages.blank];
    const tooLong = lengthProblem(username, 'username');
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

  /**
   * PNG or JPEG, not animated, at most `maxPictureBytes`: checked in the original's order, then
   * decoded (data that does not decode, or over the pictures' pixel limit, is "not PNG or JPG", as
   * the original's check said) and re-encoded as a PNG within `PICTURE_SIZE`, without metadata. A
   * full render queue is THROTTLED (429).
   */
  private async checkPicture(picture: Promise<UploadedFile>): Promise<RenderedImage | string[]> {
    let file: UploadedFile;
    try {
      file = await picture;
    } catch {
      return ['Please use images smaller than 4MB.'];
    }
    const { data, size } = await readClientStream(file.createReadStream(), this.maxPictureBytes);
    const sniffed = sniffImage(data);
    if (!sniffed) return ['Images must be either PNG or JPG.'];
    if (sniffed.animated) return ['Images cannot be animated.'];
    if (size > this.maxPictureBytes) return ['Please use images smaller than 4MB.'];
    try {
      const { variants } = await this.images.render(
        data,
        [{ fit: 'inside', ...PICTURE_SIZE, format: 'png' }],
        'picture',
      );
      return variants[0];
    } catch (error) {
      if (error instanceof InvalidImageError) return ['Images must be either PNG or JPG.'];
      throw error;
    }
  }

  private pictureKey(user: Pick<User, 'id' | 'pictureType'>): string | null {
    if (!user.pictureType) return null;
    const extension = user.pictureType === 'image/jpeg' ? 'jpg' : 'png';
    return `userpics/${Math.floor(user.id / 1000)}/${user.id}.${extension}`;
  }

  /** The picture's public URL (cache-busted), or null. */
  async pictureUrl(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<string | null> {
    const picture = await this.picture(ctx, user);
    const key = picture && this.pictureKey({ id: user.id, pictureType: picture.pictureType });
    return key ? `${this.storage.url(ctx.request.baseUrl, key)}?modified=${picture.pictureHash}` : null;
  }

  async pictureType(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<string | null> {
    return (await this.picture(ctx, user))?.pictureType ?? null;
  }

  /** An entity knows its picture; a record (an add-on's author) is looked up. */
  private async picture(ctx: RequestContext, user: Pick<UserRecord, 'id'>) {
    if (user instanceof User) return { pictureType: user.pictureType, pictureHash: user.pictureHash };
    return this.stats(ctx, user);
  }

  /** The caller, or 401 when anonymous. */
  me(ctx: RequestContext): User {
    if (!ctx.viewer.user) throw errors.notAuthenticated();
    return ctx.viewer.user;
  }

  /** Every account, newest first (Users:Edit, checked by the `users` operation's `@Requires`). */
  async list(ctx: RequestContext, page?: number | null, pageSize?: number | null): Promise<Page<User>> {
    const request = pageRequest(page, pageSize);
    const [items, count] = await ctx.em.findAndCount(
      User,
      {},
      { orderBy: { id: 'desc' }, limit: request.limit, offset: request.offset },
    );
    return toPage(request, count, items);
  }

  /** Accepts the agreement in force (with `input`: the original's checks; see DeveloperAgreementService). */
  acceptDeveloperAgreement(ctx: RequestContext, input?: DeveloperAgreementInput | null): Promise<User> {
    return this.agreement.accept(ctx, this.me(ctx), input);
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
    return ctx.viewer.is(user.id) || ctx.viewer.can(Permission.USERS_EDIT);
  }

  hasAnonymousUsername(user: Pick<UserRecord, 'username'>): boolean {
    return ANONYMOUS_USERNAME.test(user.username);
  }

  /** v4 `name`: the display name, else a generated one containing the id. */
  displayNameOrDefault(user: Pick<UserRecord, 'id' | 'displayName'>, browserName: string): string {
    return user.displayName || `${browserName} user ${user.id}`;
  }

  async createUser(em: EntityManager, input: CreateUserInput): Promise<User> {
    const problems = new FieldErrorCollector();
    const email = input.email?.trim().toLowerCase() ?? '';
    if (!email) problems.add('email', fieldMessages.required);
    else if (lengthProblem(email, 'email')) problems.add('email', maxLengthMessage(TEXT_LIMITS.email));
    else if (!isEmailAddress(email)) problems.add('email', fieldMessages.email);
    else if (await em.count(User, { email })) problems.add('email', 'A user with this email address already exists.');

    let username = input.username?.trim() || null;
    if (username !== null) {
      if (lengthProblem(username, 'username')) problems.add('username', maxLengthMessage(TEXT_LIMITS.username));
      else if (/^\d+$/.test(username)) problems.add('username', 'Usernames cannot contain only digits.');
      else if (!USERNAME.test(username)) {
        problems.add('username', 'Enter a valid username consisting of letters, numbers, underscores or hyphens.');
      } else if (await em.count(User, { username })) problems.add('username', 'This username is already in use.');
    } else {
      username = `anonymous-${randomBytes(16).toString('hex')}`;
    }

    const displayName = input.displayName?.trim() || null;
    const displayNameTooLong = lengthProblem(displayName, 'displayName');
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
}
