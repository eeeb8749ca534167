import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import { selectRows } from '../db/rows.js';
import { collectionAuthorById } from './collections.loaders.js';
import {
  COLLECTION_COLUMNS,
  toCollectionRecord,
  type CollectionRecord,
  type CollectionRow,
} from './collections.records.js';
import { Permission } from '../access/permissions.js';
import { defineObjectRule } from '../access/object-rules.js';

export interface CollectionsOptions {
  /** Username of the vendor's own account, whose collections curators manage. */
  vendorUsername: string;
  /** Slug of the vendor account's featured-themes collection, whose add-ons contributors manage. */
  featuredThemesSlug: string;
}

const MAX_ID = 2_147_483_647;

/** All digits, within the id columns' range (larger numbers name nothing). */
export function isIntegerId(identifier: string): boolean {
  return /^\d+$/.test(identifier) && Number(identifier) <= MAX_ID;
}

/** Flushes; a concurrent duplicate (unique index) gets the same answer as one found before. */
export async function flushUnique(ctx: RequestContext, message: string) {
  try {
    await ctx.em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw errors.field('non_field_errors', message);
    throw error;
  }
}

/** A collection with its author, and the service's settings that name the vendor's collections. */
interface CollectionSubject {
  readonly author: UserRecord;
  readonly collection: CollectionRecord;
  readonly options: CollectionsOptions;
}

/** May change the collection's add-ons (and see it when it is not public): see `CollectionAccess`. */
function managesAddons(ctx: RequestContext, { author, collection, options }: CollectionSubject): boolean {
  const { viewer } = ctx;
  if (viewer.is(author.id)) return true;
  if (ctx.legacy?.collectionEditorsActOnAny) return viewer.can(Permission.COLLECTIONS_EDIT);
  if (author.username !== options.vendorUsername) return false;
  if (viewer.can(Permission.ADMIN_CURATION)) return true;
  return viewer.can(Permission.COLLECTIONS_CONTRIBUTE) && collection.slug === options.featuredThemesSlug;
}

function denied(ctx: RequestContext) {
  return ctx.viewer.isAuthenticated ? errors.forbidden() : errors.notAuthenticated();
}

/** A public collection is read by anyone, others by those who manage their add-ons (401/403). */
export const readCollection = defineObjectRule(
  'collection.read',
  'public collections for anyone; others for their managers',
  (ctx: RequestContext, subject: CollectionSubject): void => {
    if (!subject.collection.listed && !managesAddons(ctx, subject)) throw denied(ctx);
  },
);

/** A collection's add-ons are changed by its owner, and curators or contributors where allowed (401/403). */
export const manageCollectionAddons = defineObjectRule(
  'collection.manageAddons',
  'signed in; a manager of the collection',
  (ctx: RequestContext, subject: CollectionSubject): void => {
    if (!managesAddons(ctx, subject)) throw denied(ctx);
  },
);

/** A user's collections are listed by that user (legacy rules: also `Collections:Edit`); 403 otherwise. */
export const listCollections = defineObjectRule(
  'collection.list',
  'the owner',
  (ctx: RequestContext, author: UserRecord): void => {
    const editor = ctx.legacy?.collectionEditorsActOnAny && ctx.viewer.can(Permission.COLLECTIONS_EDIT);
    if (!ctx.viewer.is(author.id) && !editor) throw errors.forbidden();
  },
);

/** A collection is created by its author only; 403 otherwise. */
export const createCollection = defineObjectRule(
  'collection.create',
  '`user` is the caller',
  (ctx: RequestContext, author: UserRecord): void => {
    if (!ctx.viewer.is(author.id)) throw errors.forbidden();
  },
);

/**
 * A collection's own fields are changed (`edit`) by its owner and curators on the vendor's
 * collections, and it is deleted (`delete`) by its owner; under the legacy rule
 * `collectionEditorsActOnAny` holders of `Collections:Edit` do both on any (curators nothing). As in
 * the original, the permission is checked before the slug is looked up (`find`: 404), the vendor's
 * ownership after; 403 otherwise. Answers the collection.
 */
export const editCollection = defineObjectRule(
  'collection.edit',
  'the owner of the collection',
  async (
    ctx: RequestContext,
    subject: Omit<CollectionSubject, 'collection'>,
    action: 'edit' | 'delete',
    find: () => Promise<CollectionRecord>,
  ): Promise<CollectionRecord> => {
    const { viewer } = ctx;
    const { author, options } = subject;
    const owner = viewer.is(author.id);
    const legacy = ctx.legacy?.collectionEditorsActOnAny ?? false;
    const editor = legacy && viewer.can(Permission.COLLECTIONS_EDIT);
    const curator = !legacy && action === 'edit' && viewer.can(Permission.ADMIN_CURATION);
    if (!owner && !editor && !curator) throw errors.forbidden();
    const collection = await find();
    if (!owner && !editor && author.username !== options.vendorUsername) throw errors.forbidden();
    return collection;
  },
);

/**
 * Finding a collection (author by id or username, collection by slug) and who may read it or
 * change its add-ons: shared by the collections and their items. Who, besides the owner, manages
 * collections: `Admin:Curation` holders see and edit the vendor account's collections (not list or
 * delete them); `Collections:Contribute` holders see the vendor's featured-themes collection and
 * manage its add-ons. Under the legacy rule `collectionEditorsActOnAny` (see LegacyRules), holders
 * of `Collections:Edit` instead see and manage every collection (they only cannot create one for
 * someone else), and curators and contributors have no rights of their own.
 */
export class CollectionAccess {
  constructor(private readonly options: CollectionsOptions) {}

  isVendorCollection(author: UserRecord): boolean {
    return author.username === this.options.vendorUsername;
  }

  /** A (not deleted) account by id (all digits) or username. */
  private async findUser(ctx: RequestContext, identifier: string): Promise<UserRecord | null> {
    if (identifier.includes('\0')) return null;
    const byId = /^\d+$/.test(identifier);
    if (byId && !isIntegerId(identifier)) return null;
    const [row] = await selectRows<JoinedUserRow>(
      ctx.em,
      `select ${JOINED_USER_COLUMNS} from users u
        where not u.deleted and ${byId ? 'u.id = ?' : `u.username = ?`}`,
      [byId ? Number(identifier) : identifier],
    );
    if (!row) return null;
    const user = toJoinedUserRecord(row, ctx.em.getPlatform());
    ctx.loaders.get(collectionAuthorById).prime(user.id, user);
    return user;
  }

  async requireUser(ctx: RequestContext, identifier: string): Promise<UserRecord> {
    const user = await this.findUser(ctx, identifier);
    if (!user) throw errors.notFound();
    return user;
  }

  async findCollection(ctx: RequestContext, authorId: number, slug: string): Promise<CollectionRecord | null> {
    if (slug.includes('\0')) return null;
    const [row] = await selectRows<CollectionRow>(
      ctx.em,
      `select ${COLLECTION_COLUMNS} from collections c where c.author_id = ? and c.slug = ?`,
      [authorId, slug],
    );
    return row ? toCollectionRecord(row, ctx.em.getPlatform()) : null;
  }

  async requireCollection(ctx: RequestContext, author: UserRecord, slug: string): Promise<CollectionRecord> {
    const collection = await this.findCollection(ctx, author.id, slug);
    if (!collection) throw errors.notFound();
    return collection;
  }

  /** A collection to read (public ones: anyone) or whose add-ons to change: 404, then 401/403. */
  async collectionFor(
    ctx: RequestContext,
    user: string,
    slug: string,
    access: 'read' | 'manage',
  ): Promise<CollectionRecord> {
    const author = await this.requireUser(ctx, user);
    const collection = await this.requireCollection(ctx, author, slug);
    const subject = { author, collection, options: this.options };
    if (access === 'read') readCollection(ctx, subject);
    else manageCollectionAddons(ctx, subject);
    return collection;
  }

  /** The author of a user's collections, when the caller may list them (`listCollections`): 404, then 403. */
  async listedAuthor(ctx: RequestContext, user: string): Promise<UserRecord> {
    const author = await this.requireUser(ctx, user);
    listCollections(ctx, author);
    return author;
  }

  /** The author of a new collection, when it is the caller (`createCollection`): 404, then 403. */
  async creatingAuthor(ctx: RequestContext, user: string): Promise<UserRecord> {
    const author = await this.requireUser(ctx, user);
    createCollection(ctx, author);
    return author;
  }

  /** A collection whose own fields to change or which to delete (`editCollection`): 403/404 in that order. */
  async editableCollection(
    ctx: RequestContext,
    user: string,
    slug: string,
    action: 'edit' | 'delete',
  ): Promise<CollectionRecord> {
    const author = await this.requireUser(ctx, user);
    return editCollection(ctx, { author, options: this.options }, action, () =>
      this.requireCollection(ctx, author, slug),
    );
  }

  /** Marks the collection changed now (its add-ons were). */
  async touch(ctx: RequestContext, collection: CollectionRecord) {
    await ctx.em.execute('update collections set modified = ?::timestamptz where id = ?', [
      new Date().toISOString(),
      collection.id,
    ]);
  }
}
