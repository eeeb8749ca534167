import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import { publicAddonSql } from '../catalogue/public.js';
import { addonById } from '../catalogue/catalogue.loaders.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { RequestContext } from '../core/context.js';
import { errors, type FieldErrors } from '../core/errors.js';
import { hasLinks } from '../core/has-links.js';
import { TEXT_LIMITS, lengthProblem, maxLengthMessage, type TextLimit } from '../core/text-limits.js';
import { DEFAULT_LOCALE, canonicalLocale } from '../core/i18n/locales.js';
import { mergeTranslations, parseTranslationsInput, type Translations } from '../core/i18n/translations.js';
import { DEFAULT_PAGE_SIZE, pageRequest, toPage, type Page } from '../core/pagination.js';
import {
  JOINED_USER_COLUMNS,
  toJoinedUserRecord,
  type JoinedUserRow,
  type UserRecord,
} from '../accounts/accounts.records.js';
import { selectRows } from '../db/rows.js';
import { Collection, CollectionAddon } from './collection.entity.js';
import { collectionAuthorById } from './collections.loaders.js';
import {
  COLLECTION_COLUMNS,
  ITEM_COLUMNS,
  toCollectionRecord,
  toItemRecord,
  type CollectionAddonRecord,
  type CollectionRecord,
  type CollectionRow,
  type ItemRow,
} from './collections.records.js';

/**
 * Who, besides the owner, manages collections. `v3`: holders of `Collections:Edit` see and manage
 * every collection (they only cannot create one for someone else). `v4`: `Admin:Curation` holders
 * see and edit the vendor account's collections (not list or delete them); `Collections:Contribute`
 * holders see the vendor's featured-themes collection and manage its add-ons.
 */
export const CollectionRules = { V3: 'v3', V4: 'v4' } as const;
export type CollectionRules = (typeof CollectionRules)[keyof typeof CollectionRules];

/** Add-ons shown: `default` public ones only, `all` any but deleted ones, `all_with_deleted` all. */
export type ItemFilter = 'default' | 'all' | 'all_with_deleted';

/** Only the fields given change (`undefined`: not given); creation needs `name` and `slug`. */
export interface CollectionInput {
  name?: unknown;
  description?: unknown;
  slug?: string | null;
  public?: boolean | null;
  defaultLocale?: string | null;
}

export interface CollectionsOptions {
  /** Username of the vendor's own account, whose collections curators manage. */
  vendorUsername: string;
  /** Slug of the vendor account's featured-themes collection, whose add-ons contributors manage. */
  featuredThemesSlug: string;
}

const SLUG_MAX = TEXT_LIMITS.collectionSlug;
const SLUG_MESSAGE = 'The custom URL must consist of letters, numbers, underscores or hyphens.';
const DUPLICATE_SLUG = 'This custom URL is already in use by another one of your collections.';
const DUPLICATE_ADDON = 'This add-on already belongs to the collection';
const REQUIRED = 'This field is required.';
const NOT_NULL = 'This field may not be null.';
const MAX_ID = 2_147_483_647;

/** Which add-ons a collection's item list shows (`default`: public ones), in SQL over `addons a`. */
const ITEM_FILTERS: Record<ItemFilter, string> = {
  default: publicAddonSql('a'),
  all: `a.status <> ${AddonStatus.DELETED}`,
  all_with_deleted: 'true',
};

const SORT_FIELDS = new Map([
  ['added', 'ca.created'],
  ['popularity', 'a.weekly_downloads'],
  // The name in the request language, else in the add-on's default locale.
  ['name', `lower(coalesce(nullif(a.name ->> ?, ''), a.name ->> a.default_locale))`],
]);

/** What a collection's owner sets. */
type CollectionFields = Pick<CollectionRecord, 'slug' | 'name' | 'description' | 'listed' | 'defaultLocale'>;

const NEW_COLLECTION: CollectionFields = {
  slug: '',
  name: null,
  description: null,
  listed: true,
  defaultLocale: DEFAULT_LOCALE,
};

interface ItemOrder {
  sql: string;
  params: unknown[];
}

/** The slug rule of the original (letters and digits of any script, `-`, `_`, `~`; lower case, no `--`). */
function isValidSlug(slug: string): boolean {
  return /^[\p{L}\p{N}_~-]+$/u.test(slug) && !slug.includes('--') && slug.toLowerCase() === slug;
}

function isIntegerId(identifier: string): boolean {
  return /^\d+$/.test(identifier) && Number(identifier) <= MAX_ID;
}

/**
 * Collections and their add-ons, for REST v3/v4 and GraphQL alike: lookups (author by id or
 * username, collection by slug), who may see and change what (`CollectionRules`), validation with
 * the original messages.
 */
export class CollectionsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly options: CollectionsOptions,
  ) {}

  // Permissions

  private isVendorCollection(author: UserRecord): boolean {
    return author.username === this.options.vendorUsername;
  }

  /** May change the collection's add-ons (and see it when it is not public). */
  private canManageAddons(
    ctx: RequestContext,
    author: UserRecord,
    collection: CollectionRecord,
    rules: CollectionRules,
  ) {
    const { viewer } = ctx;
    if (viewer.is(author.id)) return true;
    if (rules === CollectionRules.V3) return viewer.can('Collections:Edit');
    if (!this.isVendorCollection(author)) return false;
    if (viewer.can('Admin:Curation')) return true;
    return viewer.can('Collections:Contribute') && collection.slug === this.options.featuredThemesSlug;
  }

  private denied(ctx: RequestContext) {
    return ctx.viewer.isAuthenticated ? errors.forbidden() : errors.notAuthenticated();
  }

  // Lookups

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

  private async requireUser(ctx: RequestContext, identifier: string): Promise<UserRecord> {
    const user = await this.findUser(ctx, identifier);
    if (!user) throw errors.notFound();
    return user;
  }

  private async findCollection(ctx: RequestContext, authorId: number, slug: string): Promise<CollectionRecord | null> {
    if (slug.includes('\0')) return null;
    const [row] = await selectRows<CollectionRow>(
      ctx.em,
      `select ${COLLECTION_COLUMNS} from collections c where c.author_id = ? and c.slug = ?`,
      [authorId, slug],
    );
    return row ? toCollectionRecord(row, ctx.em.getPlatform()) : null;
  }

  private async requireCollection(ctx: RequestContext, author: UserRecord, slug: string): Promise<CollectionRecord> {
    const collection = await this.findCollection(ctx, author.id, slug);
    if (!collection) throw errors.notFound();
    return collection;
  }

  /** A collection to read (public ones: anyone) or whose add-ons to change: 404, then 401/403. */
  private async collectionFor(
    ctx: RequestContext,
    user: string,
    slug: string,
    rules: CollectionRules,
    access: 'read' | 'manage',
  ): Promise<CollectionRecord> {
    const author = await this.requireUser(ctx, user);
    const collection = await this.requireCollection(ctx, author, slug);
    const open = access === 'read' && collection.listed;
    if (!open && !this.canManageAddons(ctx, author, collection, rules)) throw this.denied(ctx);
    return collection;
  }

  // Collections

  /** A user's collections, most recently updated first: the owner only (v3: also `Collections:Edit`). */
  async list(
    ctx: RequestContext,
    user: string,
    rules: CollectionRules,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<CollectionRecord>> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const author = await this.requireUser(ctx, user);
    const editor = rules === CollectionRules.V3 && ctx.viewer.can('Collections:Edit');
    if (!ctx.viewer.is(author.id) && !editor) throw errors.forbidden();
    const request = pageRequest(page, pageSize);
    const [[{ count }], rows] = await Promise.all([
      selectRows<{ count: number }>(ctx.em, 'select count(*)::int as count from collections where author_id = ?', [
        author.id,
      ]),
      selectRows<CollectionRow>(
        ctx.em,
        `select ${COLLECTION_COLUMNS} from collections c where c.author_id = ?
          order by c.modified desc, c.id desc limit ? offset ?`,
        [author.id, request.limit, request.offset],
      ),
    ]);
    const db = ctx.em.getPlatform();
    return toPage(
      request,
      count,
      rows.map((row) => toCollectionRecord(row, db)),
    );
  }

  /** A collection by its author and slug: public ones for anyone, others for those who manage its add-ons. */
  async get(ctx: RequestContext, user: string, slug: string, rules: CollectionRules): Promise<CollectionRecord> {
    return this.collectionFor(ctx, user, slug, rules, 'read');
  }

  /** A new collection of the caller's (`user` must be the caller). */
  async create(ctx: RequestContext, user: string, input: CollectionInput): Promise<Collection> {
    if (!ctx.viewer.isAuthenticated) throw errors.notAuthenticated();
    const author = await this.requireUser(ctx, user);
    if (!ctx.viewer.is(author.id)) throw errors.forbidden();
    const fields = this.validate(ctx, NEW_COLLECTION, input, true);
    await this.assertSlugFree(ctx, author.id, fields.slug, null);
    const collection = ctx.em.create(Collection, {
      author: author.id,
      ...fields,
      created: new Date(),
      modified: new Date(),
    });
    await this.flushUnique(ctx, DUPLICATE_SLUG);
    return collection;
  }

  /** Changes the given fields: the owner (v3: also `Collections:Edit`; v4: curators on the vendor's collections). */
  async update(
    ctx: RequestContext,
    user: string,
    slug: string,
    input: CollectionInput,
    rules: CollectionRules,
  ): Promise<Collection> {
    const record = await this.editableCollection(ctx, user, slug, rules, 'edit');
    const fields = this.validate(ctx, record, input, false);
    await this.assertSlugFree(ctx, record.author.id, fields.slug, record.id);
    const collection = await ctx.em.findOneOrFail(Collection, record.id);
    ctx.em.assign(collection, fields);
    await this.flushUnique(ctx, DUPLICATE_SLUG);
    return collection;
  }

  /** The owner (v3: also `Collections:Edit`); its add-on list goes with it. */
  async delete(ctx: RequestContext, user: string, slug: string, rules: CollectionRules): Promise<boolean> {
    const record = await this.editableCollection(ctx, user, slug, rules, 'delete');
    await ctx.em.nativeDelete(Collection, { id: record.id });
    return true;
  }

  /**
   * Write access to a collection's own fields: the owner, v3 `Collections:Edit`, v4 curators
   * (editing only) on the vendor's collections. As in the original, the permission is checked
   * before the slug is looked up, the vendor's ownership after.
   */
  private async editableCollection(
    ctx: RequestContext,
    user: string,
    slug: string,
    rules: CollectionRules,
    action: 'edit' | 'delete',
  ): Promise<CollectionRecord> {
    const { viewer } = ctx;
    if (!viewer.isAuthenticated) throw errors.notAuthenticated();
    const author = await this.requireUser(ctx, user);
    const owner = viewer.is(author.id);
    const editor = rules === CollectionRules.V3 && viewer.can('Collections:Edit');
    const curator = rules === CollectionRules.V4 && action === 'edit' && viewer.can('Admin:Curation');
    if (!owner && !editor && !curator) throw errors.forbidden();
    const collection = await this.requireCollection(ctx, author, slug);
    if (!owner && !editor && !this.isVendorCollection(author)) throw errors.forbidden();
    return collection;
  }

  /** The fields after `input` (all problems reported at once); nothing changes until they are valid. */
  private validate(
    ctx: RequestContext,
    current: CollectionFields,
    input: CollectionInput,
    creating: boolean,
  ): CollectionFields {
    const fields = { ...current };
    const problems: FieldErrors = {};
    const fail = (field: string, message: string) => (problems[field] ??= []).push(message);
    const translated = (field: string, value: unknown, stored: Translations | null, limit: TextLimit) => {
      try {
        const merged = mergeTranslations(stored, parseTranslationsInput(field, value, ctx.locale));
        // The length first: a text over the limit is not looked at further (links, blanks).
        const tooLong = Object.values(merged ?? {})
          .map((text) => lengthProblem(text, limit))
          .find(Boolean);
        if (tooLong) {
          fail(field, tooLong);
          return stored;
        }
        return merged;
      } catch (error) {
        const messages = (error as { fields?: FieldErrors }).fields?.[field];
        if (!messages) throw error;
        messages.forEach((m) => fail(field, m));
        return stored;
      }
    };

    if (input.name === undefined) {
      if (creating) fail('name', REQUIRED);
    } else if (input.name === null) {
      fail('name', NOT_NULL);
    } else {
      const given = typeof input.name === 'object' ? Object.values(input.name) : [input.name];
      const name = translated('name', input.name, current.name, 'collectionName');
      const blank = !name || given.some((v) => typeof v !== 'string' || !v.trim());
      if (!problems.name && blank) fail('name', 'Name cannot be empty.');
      else if (!problems.name) fields.name = name;
    }

    if (input.description !== undefined) {
      const description = translated('description', input.description, current.description, 'collectionDescription');
      const links = Object.values(description ?? {}).some(hasLinks);
      if (!problems.description && links) fail('description', 'No links are allowed.');
      else if (!problems.description) fields.description = description;
    }

    if (input.slug === undefined) {
      if (creating) fail('slug', REQUIRED);
    } else if (input.slug === null) {
      fail('slug', NOT_NULL);
    } else if (input.slug.length > SLUG_MAX) {
      fail('slug', maxLengthMessage(SLUG_MAX));
    } else if (!isValidSlug(input.slug)) {
      fail('slug', SLUG_MESSAGE);
    } else {
      fields.slug = input.slug;
    }

    if (input.public === null) fail('public', NOT_NULL);
    else if (input.public !== undefined) fields.listed = input.public;

    if (input.defaultLocale === null) {
      fail('default_locale', NOT_NULL);
    } else if (input.defaultLocale !== undefined) {
      const locale = canonicalLocale(input.defaultLocale);
      if (locale) fields.defaultLocale = locale;
      else fail('default_locale', `"${input.defaultLocale}" is not a valid choice.`);
    }

    if (Object.keys(problems).length) throw errors.validation(problems);
    return fields;
  }

  private async assertSlugFree(ctx: RequestContext, authorId: number, slug: string, exceptId: number | null) {
    const found = await this.findCollection(ctx, authorId, slug);
    if (found && found.id !== exceptId) throw errors.field('non_field_errors', DUPLICATE_SLUG);
  }

  /** Flushes; a concurrent duplicate (unique index) gets the same answer as one found before. */
  private async flushUnique(ctx: RequestContext, message: string) {
    try {
      await ctx.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) throw errors.field('non_field_errors', message);
      throw error;
    }
  }

  private async touch(ctx: RequestContext, collection: CollectionRecord) {
    await ctx.em.execute('update collections set modified = ?::timestamptz where id = ?', [
      new Date().toISOString(),
      collection.id,
    ]);
  }

  // Add-ons of a collection

  /**
   * The collection's add-ons: `filter` (see ItemFilter; other values: default), `sort` one of
   * `added`, `popularity`, `name`, `-` for descending (default `-popularity`).
   */
  async listItems(
    ctx: RequestContext,
    user: string,
    slug: string,
    rules: CollectionRules,
    filter: string | null | undefined,
    sort: string | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<CollectionAddonRecord>> {
    const collection = await this.collectionFor(ctx, user, slug, rules, 'read');
    const order = this.itemOrder(ctx, sort);
    const request = pageRequest(page, pageSize);
    const where = `ca.collection_id = ? and ${ITEM_FILTERS[this.itemFilter(filter)]}`;
    const [[{ count }], items] = await Promise.all([
      selectRows<{ count: number }>(
        ctx.em,
        `select count(*)::int as count from collection_addons ca join addons a on a.id = ca.addon_id where ${where}`,
        [collection.id],
      ),
      this.selectItems(ctx, where, [collection.id], order, request.limit, request.offset),
    ]);
    return toPage(request, count, items);
  }

  /** What `with_addons` shows: the first page of the default order, with the list's filter. */
  async firstItems(
    ctx: RequestContext,
    collection: CollectionRecord,
    filter: string | null | undefined,
  ): Promise<CollectionAddonRecord[]> {
    const where = `ca.collection_id = ? and ${ITEM_FILTERS[this.itemFilter(filter)]}`;
    return this.selectItems(ctx, where, [collection.id], this.itemOrder(ctx, null), DEFAULT_PAGE_SIZE, 0);
  }

  /**
   * The add-on of an item. GraphQL follows the `addon` query (CatalogueService.canView): null where
   * it hides the add-on. REST v3/v4 answers keep the original's shape: the item's add-on in full,
   * whatever its status, to whoever may read the collection (`filter` picks the statuses listed).
   */
  async itemAddon(ctx: RequestContext, item: Pick<CollectionAddonRecord, 'addon'>): Promise<AddonRecord | null> {
    if (ctx.request.api === 'rest') return ctx.loaders.get(addonById).load(item.addon.id);
    return this.catalogue.visibleAddon(ctx, item.addon.id);
  }

  /** One add-on of the collection by add-on id or slug, whatever its status. */
  async getItem(
    ctx: RequestContext,
    user: string,
    slug: string,
    addon: string,
    rules: CollectionRules,
  ): Promise<CollectionAddonRecord> {
    const collection = await this.collectionFor(ctx, user, slug, rules, 'read');
    return this.requireItem(ctx, collection, addon);
  }

  /** Adds a public add-on (id or slug) with optional notes. */
  async addItem(
    ctx: RequestContext,
    user: string,
    slug: string,
    addon: string | null | undefined,
    notes: unknown,
    rules: CollectionRules,
  ): Promise<CollectionAddon> {
    const collection = await this.collectionFor(ctx, user, slug, rules, 'manage');
    const problems: FieldErrors = {};
    let addonId: number | null = null;
    if (addon === undefined || addon === '') problems.addon = [REQUIRED];
    else if (addon === null) problems.addon = [NOT_NULL];
    else {
      const found = await this.catalogue.find(ctx, addon);
      if (found && this.catalogue.isPublic(found)) addonId = found.id;
      else problems.addon = [`Invalid pk or slug "${addon}" - object does not exist.`];
    }
    const parsedNotes = this.parseNotes(ctx, notes, null, problems);
    if (Object.keys(problems).length || addonId === null) throw errors.validation(problems);
    const [taken] = await selectRows<{ id: number }>(
      ctx.em,
      'select id from collection_addons where collection_id = ? and addon_id = ?',
      [collection.id, addonId],
    );
    if (taken) throw errors.field('non_field_errors', DUPLICATE_ADDON);
    const item = ctx.em.create(CollectionAddon, {
      collection: collection.id,
      addon: addonId,
      notes: parsedNotes,
      created: new Date(),
    });
    await this.flushUnique(ctx, DUPLICATE_ADDON);
    await this.touch(ctx, collection);
    return item;
  }

  /** Changes the notes only. */
  async updateItem(
    ctx: RequestContext,
    user: string,
    slug: string,
    addon: string,
    notes: unknown,
    rules: CollectionRules,
  ): Promise<CollectionAddon> {
    const collection = await this.collectionFor(ctx, user, slug, rules, 'manage');
    const record = await this.requireItem(ctx, collection, addon);
    const item = await ctx.em.findOneOrFail(CollectionAddon, record.id);
    if (notes !== undefined) {
      const problems: FieldErrors = {};
      const parsed = this.parseNotes(ctx, notes, item.notes, problems);
      if (Object.keys(problems).length) throw errors.validation(problems);
      item.notes = parsed;
      await ctx.em.flush();
      await this.touch(ctx, collection);
    }
    return item;
  }

  async removeItem(
    ctx: RequestContext,
    user: string,
    slug: string,
    addon: string,
    rules: CollectionRules,
  ): Promise<boolean> {
    const collection = await this.collectionFor(ctx, user, slug, rules, 'manage');
    const item = await this.requireItem(ctx, collection, addon);
    await ctx.em.nativeDelete(CollectionAddon, { id: item.id });
    await this.touch(ctx, collection);
    return true;
  }

  private parseNotes(ctx: RequestContext, notes: unknown, current: Translations | null, problems: FieldErrors) {
    if (notes === undefined) return current;
    try {
      const merged = mergeTranslations(current, parseTranslationsInput('notes', notes, ctx.locale));
      const tooLong = Object.values(merged ?? {})
        .map((text) => lengthProblem(text, 'collectionNotes'))
        .find(Boolean);
      if (tooLong) {
        problems.notes = [tooLong];
        return current;
      }
      return merged;
    } catch (error) {
      const fields = (error as { fields?: FieldErrors }).fields;
      if (!fields) throw error;
      Object.assign(problems, fields);
      return current;
    }
  }

  private async requireItem(ctx: RequestContext, collection: CollectionRecord, addon: string) {
    if (addon.includes('\0')) throw errors.notFound();
    const byId = /^\d+$/.test(addon);
    if (byId && !isIntegerId(addon)) throw errors.notFound();
    const where = `ca.collection_id = ? and ${byId ? 'a.id = ?' : `a.slug = ?`}`;
    const [item] = await this.selectItems(ctx, where, [collection.id, byId ? Number(addon) : addon]);
    if (!item) throw errors.notFound();
    return item;
  }

  private itemFilter(filter: string | null | undefined): ItemFilter {
    return filter === 'all' || filter === 'all_with_deleted' ? filter : 'default';
  }

  /** `sort`: unknown fields are ignored (the default applies), but only one field may be given. */
  private itemOrder(ctx: RequestContext, sort: string | null | undefined): ItemOrder {
    const fields = (sort ?? '')
      .split(',')
      .map((field) => field.trim())
      .filter((field) => SORT_FIELDS.has(field.replace(/^-/, '')));
    if (fields.length > 1) {
      throw errors.badParameter('You can only specify one "sort" argument. Multiple orderings are not supported');
    }
    const field = fields[0] ?? '-popularity';
    const descending = field.startsWith('-');
    const name = field.replace(/^-/, '');
    const direction = descending ? 'desc' : 'asc';
    return {
      sql: `${SORT_FIELDS.get(name)} ${direction} nulls last, ca.id ${direction}`,
      params: name === 'name' ? [ctx.locale] : [],
    };
  }

  private async selectItems(
    ctx: RequestContext,
    where: string,
    params: unknown[],
    order: ItemOrder = { sql: 'ca.id', params: [] },
    limit = 1,
    offset = 0,
  ): Promise<CollectionAddonRecord[]> {
    const rows = await selectRows<ItemRow>(
      ctx.em,
      `select ${ITEM_COLUMNS} from collection_addons ca join addons a on a.id = ca.addon_id
        where ${where} order by ${order.sql} limit ? offset ?`,
      [...params, ...order.params, limit, offset],
    );
    const db = ctx.em.getPlatform();
    return rows.map((row) => toItemRecord(row, db));
  }
}
