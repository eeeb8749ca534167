import { notDeletedAddonSql } from '../catalogue/addon-access.js';
import { publicAddonSql } from '../catalogue/public.js';
import { addonById } from '../catalogue/catalogue.loaders.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import type { CatalogueService } from '../catalogue/catalogue.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { fieldMessages } from '../core/messages.js';
import type { Translations } from '../core/i18n/translations.js';
import { DEFAULT_PAGE_SIZE, pageRequest, toPage, type Page } from '../core/pagination.js';
import { selectRows } from '../db/rows.js';
import { CollectionAddon } from './collection.entity.js';
import { type CollectionAccess, flushUnique, isIntegerId } from './collections.access.js';
import {
  ITEM_COLUMNS,
  toItemRecord,
  type CollectionAddonRecord,
  type CollectionRecord,
  type ItemRow,
} from './collections.records.js';
import { COLLECTIONS_TEXT_LIMITS } from './text-limits.js';

/** Add-ons shown: `default` public ones only, `all` any but deleted ones, `all_with_deleted` all. */
export type ItemFilter = 'default' | 'all' | 'all_with_deleted';

const DUPLICATE_ADDON = 'This add-on already belongs to the collection';

/**
 * Which add-ons a collection's item list shows, in SQL over `addons a`: the client's `filter`, not
 * the viewer's rights (whoever may read the collection may ask for any), so list filters built on
 * the catalogue's named predicates (`public.ts`, `addon-access.ts`), not `CollectionAccess` rules.
 */
const ITEM_FILTERS: Record<ItemFilter, string> = {
  default: publicAddonSql('a'),
  all: notDeletedAddonSql('a'),
  all_with_deleted: 'true',
};

const SORT_FIELDS = new Map([
  ['added', 'ca.created'],
  ['popularity', 'a.weekly_downloads'],
  // The name in the request language, else in the add-on's default locale.
  ['name', `lower(coalesce(nullif(a.name ->> ?, ''), a.name ->> a.default_locale))`],
]);

interface ItemOrder {
  sql: string;
  params: unknown[];
}

/**
 * The add-ons of collections (items, with their notes), for REST v3/v4 and GraphQL alike: who
 * may read and change them is `CollectionAccess`'s, validation keeps the original messages.
 */
export class CollectionItemsService {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly access: CollectionAccess,
  ) {}

  /**
   * The collection's add-ons: `filter` (see ItemFilter; other values: default), `sort` one of
   * `added`, `popularity`, `name`, `-` for descending (default `-popularity`).
   */
  async listItems(
    ctx: RequestContext,
    user: string,
    slug: string,
    filter: string | null | undefined,
    sort: string | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<CollectionAddonRecord>> {
    const collection = await this.access.collectionFor(ctx, user, slug, 'read');
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
  async getItem(ctx: RequestContext, user: string, slug: string, addon: string): Promise<CollectionAddonRecord> {
    const collection = await this.access.collectionFor(ctx, user, slug, 'read');
    return this.requireItem(ctx, collection, addon);
  }

  /** Adds a public add-on (id or slug) with optional notes. */
  async addItem(
    ctx: RequestContext,
    user: string,
    slug: string,
    addon: string | null | undefined,
    notes: unknown,
  ): Promise<CollectionAddon> {
    const collection = await this.access.collectionFor(ctx, user, slug, 'manage');
    const problems = new FieldErrorCollector();
    let addonId: number | null = null;
    if (addon === undefined || addon === '') problems.add('addon', fieldMessages.required);
    else if (addon === null) problems.add('addon', fieldMessages.null);
    else {
      const found = await this.catalogue.find(ctx, addon);
      if (found && this.catalogue.isPublic(found)) addonId = found.id;
      else problems.add('addon', fieldMessages.pkOrSlugDoesNotExist(addon));
    }
    const parsedNotes = this.parseNotes(ctx, notes, null, problems);
    if (problems.has() || addonId === null) throw errors.validation(problems.fields);
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
    await flushUnique(ctx, DUPLICATE_ADDON);
    await this.access.touch(ctx, collection);
    return item;
  }

  /** Changes the notes only. */
  async updateItem(
    ctx: RequestContext,
    user: string,
    slug: string,
    addon: string,
    notes: unknown,
  ): Promise<CollectionAddon> {
    const collection = await this.access.collectionFor(ctx, user, slug, 'manage');
    const record = await this.requireItem(ctx, collection, addon);
    const item = await ctx.em.findOneOrFail(CollectionAddon, record.id);
    if (notes !== undefined) {
      const problems = new FieldErrorCollector();
      const parsed = this.parseNotes(ctx, notes, item.notes, problems);
      problems.throwIfAny();
      item.notes = parsed;
      await ctx.em.flush();
      await this.access.touch(ctx, collection);
    }
    return item;
  }

  async removeItem(ctx: RequestContext, user: string, slug: string, addon: string): Promise<boolean> {
    const collection = await this.access.collectionFor(ctx, user, slug, 'manage');
    const item = await this.requireItem(ctx, collection, addon);
    await ctx.em.nativeDelete(CollectionAddon, { id: item.id });
    await this.access.touch(ctx, collection);
    return true;
  }

  private parseNotes(ctx: RequestContext, notes: unknown, current: Translations | null, problems: FieldErrorCollector) {
    return problems.translated('notes', notes, current, ctx.locale, COLLECTIONS_TEXT_LIMITS.collectionNotes);
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
