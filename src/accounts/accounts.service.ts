import { type Hooks } from '../core/hooks.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import type { ImageRenderer, RenderedImage } from '../core/images.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import type { Storage } from '../storage/storage.port.js';
import { anonymiseAccount, removeAccount, type AccountDeletionHooks } from './account-deletion.js';
import { AccountPictures } from './account-pictures.js';
import { USERNAME, applyProfile, checkDisplayName, checkProfile, type AccountInput } from './account-profile.js';
import { accountStatsByUserId, permissionsByUserId, type AccountStats } from './accounts.loaders.js';
import type { UserRecord } from './accounts.records.js';
import { canViewAccount, editAccount, seesPrivateFields, viewAccount } from './accounts.access.js';
import { DeveloperAgreementService, type DeveloperAgreementInput } from './developer-agreement.js';
import { superCreate, type SuperCreateInput, type SuperCreated } from './super-create.js';
import { createUser, type CreateUserInput } from './user-creation.js';
import { User } from './user.entity.js';

export { PICTURE_SIZE } from './account-pictures.js';
export type { AccountInput } from './account-profile.js';
export type { SuperCreateInput, SuperCreated } from './super-create.js';
export type { CreateUserInput } from './user-creation.js';

/**
 * Steps of the modules above accounts (`Hooks`): what deleting an account reaches, a test account's
 * session, where the email is edited.
 */
export interface AccountHooks extends AccountDeletionHooks {
  /** Starts a browser session for the account (super-create's test accounts); its token. */
  startSession?: (em: EntityManager, user: User) => Promise<string>;
  /** Where the user edits their email at the account provider (v4 `idp_edit_email_url`). */
  accountUrl?: () => string | null;
}

export interface AccountsOptions {
  /** The steps modules above provide; read when an account is deleted or a test account made. */
  hooks?: Hooks<AccountHooks>;
  /** Largest profile picture (default 4 MB). */
  maxPictureBytes?: number;
  /** The process's image renders (queue and pixel limits); default: one of its own. */
  images?: ImageRenderer;
  /** When the developer agreement last changed (DEVELOPER_AGREEMENT_CHANGED); default: the original's fallback. */
  developerAgreementChanged?: Date | null;
  /** Whether `superCreate` is available (default false). */
  superCreateEnabled?: boolean;
}

const ANONYMOUS_USERNAME = /^anonymous-[0-9a-f]{32}$/;
const MAX_ID = 2_147_483_647;

/**
 * Rules about user accounts: lookups, who sees and edits what, and the operations on an account.
 * The concerns live beside it: profile checks (account-profile.ts), pictures (account-pictures.ts),
 * deletion (account-deletion.ts), new accounts (user-creation.ts) and test accounts (super-create.ts).
 */
export class AccountsService {
  private readonly pictures: AccountPictures;

  constructor(
    storage: Storage,
    private readonly options: AccountsOptions = {},
  ) {
    this.pictures = new AccountPictures(storage, options.images, options.maxPictureBytes);
    this.agreement = new DeveloperAgreementService(checkDisplayName, options.developerAgreementChanged ?? null);
  }

  /** The developer agreement: the version in force, who accepted it, accepting it. */
  readonly agreement: DeveloperAgreementService;

  /** A test account (see super-create.ts). */
  superCreate(ctx: RequestContext, input: SuperCreateInput): Promise<SuperCreated> {
    return superCreate(ctx, input, {
      enabled: Boolean(this.options.superCreateEnabled),
      startSession: this.options.hooks?.steps.startSession,
    });
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
    if (!user) throw errors.notFound();
    await viewAccount(ctx, user);
    return user;
  }

  /** The account when the caller may see it (`canViewAccount`), else null: what nested user fields return. */
  async visibleUser<T extends Pick<UserRecord, 'id'>>(ctx: RequestContext, user: T | null): Promise<T | null> {
    return user && (await canViewAccount(ctx, user)) ? user : null;
  }

  /**
   * An account to change: 404 unknown, 403 unless self or `Users:Edit` (anonymous callers: 401,
   * before, from the operations' `@Requires(SIGN_IN)`).
   */
  async editable(ctx: RequestContext, identifier: string): Promise<User> {
    const user = await this.findUser(ctx, identifier);
    if (!user) throw errors.notFound();
    editAccount(ctx, user);
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
    const changes = await checkProfile(ctx, user, input, problems);
    let image: RenderedImage | null = null;
    if (picture) {
      const result = await this.pictures.check(picture);
      if (Array.isArray(result)) problems.addAll('picture_upload', result);
      else image = result;
    }
    problems.throwIfAny();

    applyProfile(user, changes);
    if (image) await this.pictures.replace(user, image);
    await ctx.em.flush();
    return user;
  }

  /** Removes the picture (a no-op without one). */
  async deletePicture(ctx: RequestContext, identifier: string): Promise<User> {
    const user = await this.editable(ctx, identifier);
    const key = this.pictures.key(user);
    if (key) {
      user.pictureType = null;
      user.pictureHash = null;
      await ctx.em.flush();
      await this.pictures.delete(key);
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
    const picture = this.pictures.key(user);
    const hooks = this.options.hooks?.steps ?? {};
    if (ctx.legacy?.deletionAnonymises) await anonymiseAccount(ctx, user, await this.stats(ctx, user), hooks);
    else await removeAccount(ctx, user, hooks);
    if (picture) await this.pictures.delete(picture);
    return true;
  }

  /** The picture's public URL (cache-busted), or null. */
  async pictureUrl(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<string | null> {
    const picture = await this.picture(ctx, user);
    return this.pictures.url(ctx, picture && { ...picture, id: user.id });
  }

  async pictureType(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<string | null> {
    return (await this.picture(ctx, user))?.pictureType ?? null;
  }

  /** An entity knows its picture; a record (an add-on's author) is looked up. */
  private async picture(
    ctx: RequestContext,
    user: Pick<UserRecord, 'id'>,
  ): Promise<Pick<AccountStats, 'pictureType' | 'pictureHash'> | null> {
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

  async permissionsOf(ctx: RequestContext, user: Pick<UserRecord, 'id'>): Promise<string[]> {
    if (ctx.viewer.is(user.id)) return [...ctx.viewer.permissions];
    return ctx.loaders.get(permissionsByUserId).load(user.id);
  }

  /** Users may see their own private fields; `Users:Edit` sees everyone's (`seesPrivateFields`). */
  canSeePrivateFields(ctx: RequestContext, user: Pick<UserRecord, 'id'>): boolean {
    return seesPrivateFields(ctx, user);
  }

  hasAnonymousUsername(user: Pick<UserRecord, 'username'>): boolean {
    return ANONYMOUS_USERNAME.test(user.username);
  }

  /** v4 `name`: the display name, else a generated one containing the id. */
  displayNameOrDefault(user: Pick<UserRecord, 'id' | 'displayName'>, browserName: string): string {
    return user.displayName || `${browserName} user ${user.id}`;
  }

  /** A new account (see user-creation.ts). */
  createUser(em: EntityManager, input: CreateUserInput): Promise<User> {
    return createUser(em, input);
  }
}
