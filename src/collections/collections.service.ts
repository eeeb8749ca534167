import { DEFAULT_LOCALE, canonicalLocale } from '../core/i18n/locales.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { FieldErrorCollector } from '../core/field-errors.js';
import { hasLinks } from '../core/has-links.js';
import { fieldMessages } from '../core/messages.js';
import { maxLengthMessage } from '../core/text-limits.js';
import { toPage, pageRequest, type Page } from '../core/pagination.js';
import { selectRows } from '../db/rows.js';
import { Collection } from './collection.entity.js';
import { type CollectionAccess, flushUnique } from './collections.access.js';
import {
  COLLECTION_COLUMNS,
  toCollectionRecord,
  type CollectionRecord,
  type CollectionRow,
} from './collections.records.js';
import { COLLECTIONS_TEXT_LIMITS } from './text-limits.js';

/** Only the fields given change (`undefined`: not given); creation needs `name` and `slug`. */
export interface CollectionInput {
  name?: unknown;
  description?: unknown;
  slug?: string | null;
  public?: boolean | null;
  defaultLocale?: string | null;
}

const SLUG_MAX = COLLECTIONS_TEXT_LIMITS.collectionSlug;
const SLUG_MESSAGE = 'The custom URL must consist of letters, numbers, underscores or hyphens.';
const DUPLICATE_SLUG = 'This custom URL is already in use by another one of your collections.';

/** What a collection's owner sets. */
type CollectionFields = Pick<CollectionRecord, 'slug' | 'name' | 'description' | 'listed' | 'defaultLocale'>;

const NEW_COLLECTION: CollectionFields = {
  slug: '',
  name: null,
  description: null,
  listed: true,
  defaultLocale: DEFAULT_LOCALE,
};

/** The slug rule of the original (letters and digits of any script, `-`, `_`, `~`; lower case, no `--`). */
function isValidSlug(slug: string): boolean {
  return /^[\p{L}\p{N}_~-]+$/u.test(slug) && !slug.includes('--') && slug.toLowerCase() === slug;
}

/**
 * Collections, for REST v3/v4 and GraphQL alike: list, read, create, edit and delete, with the
 * original's rules (checked by `CollectionAccess`) and validation messages.
 * Their add-ons are `CollectionItemsService`'s.
 */
export class CollectionsService {
  constructor(private readonly access: CollectionAccess) {}

  /** A user's collections, most recently updated first: the owner only (legacy rules: also `Collections:Edit`). */
  async list(
    ctx: RequestContext,
    user: string,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<CollectionRecord>> {
    const author = await this.access.listedAuthor(ctx, user);
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
  async get(ctx: RequestContext, user: string, slug: string): Promise<CollectionRecord> {
    return this.access.collectionFor(ctx, user, slug, 'read');
  }

  /** A new collection of the caller's (`user` must be the caller). */
  async create(ctx: RequestContext, user: string, input: CollectionInput): Promise<Collection> {
    const author = await this.access.creatingAuthor(ctx, user);
    const fields = this.validate(ctx, NEW_COLLECTION, input, true);
    await this.assertSlugFree(ctx, author.id, fields.slug, null);
    const collection = ctx.em.create(Collection, {
      author: author.id,
      ...fields,
      created: new Date(),
      modified: new Date(),
    });
    await flushUnique(ctx, DUPLICATE_SLUG);
    return collection;
  }

  /**
   * Changes the given fields: the owner, curators on the vendor's collections (legacy rules:
   * `Collections:Edit` on any instead).
   */
  async update(ctx: RequestContext, user: string, slug: string, input: CollectionInput): Promise<Collection> {
    const record = await this.access.editableCollection(ctx, user, slug, 'edit');
    const fields = this.validate(ctx, record, input, false);
    await this.assertSlugFree(ctx, record.author.id, fields.slug, record.id);
    const collection = await ctx.em.findOneOrFail(Collection, record.id);
    ctx.em.assign(collection, fields);
    await flushUnique(ctx, DUPLICATE_SLUG);
    return collection;
  }

  /** The owner (legacy rules: also `Collections:Edit`); its add-on list goes with it. */
  async delete(ctx: RequestContext, user: string, slug: string): Promise<boolean> {
    const record = await this.access.editableCollection(ctx, user, slug, 'delete');
    await ctx.em.nativeDelete(Collection, { id: record.id });
    return true;
  }

  /** The fields after `input` (all problems reported at once); nothing changes until they are valid. */
  private validate(
    ctx: RequestContext,
    current: CollectionFields,
    input: CollectionInput,
    creating: boolean,
  ): CollectionFields {
    const fields = { ...current };
    const p = new FieldErrorCollector();

    if (input.name === undefined) {
      if (creating) p.add('name', fieldMessages.required);
    } else if (input.name === null) {
      p.add('name', fieldMessages.null);
    } else {
      const given = typeof input.name === 'object' ? Object.values(input.name) : [input.name];
      const name = p.translated('name', input.name, current.name, ctx.locale, COLLECTIONS_TEXT_LIMITS.collectionName);
      const blank = !name || given.some((v) => typeof v !== 'string' || !v.trim());
      if (!p.has('name') && blank) p.add('name', 'Name cannot be empty.');
      else if (!p.has('name')) fields.name = name;
    }

    if (input.description !== undefined) {
      const description = p.translated(
        'description',
        input.description,
        current.description,
        ctx.locale,
        COLLECTIONS_TEXT_LIMITS.collectionDescription,
      );
      const links = Object.values(description ?? {}).some(hasLinks);
      if (!p.has('description') && links) p.add('description', fieldMessages.noLinks);
      else if (!p.has('description')) fields.description = description;
    }

    if (input.slug === undefined) {
      if (creating) p.add('slug', fieldMessages.required);
    } else if (input.slug === null) {
      p.add('slug', fieldMessages.null);
    } else if (input.slug.length > SLUG_MAX) {
      p.add('slug', maxLengthMessage(SLUG_MAX));
    } else if (!isValidSlug(input.slug)) {
      p.add('slug', SLUG_MESSAGE);
    } else {
      fields.slug = input.slug;
    }

    if (input.public === null) p.add('public', fieldMessages.null);
    else if (input.public !== undefined) fields.listed = input.public;

    if (input.defaultLocale === null) {
      p.add('default_locale', fieldMessages.null);
    } else if (input.defaultLocale !== undefined) {
      const locale = canonicalLocale(input.defaultLocale);
      if (locale) fields.defaultLocale = locale;
      else p.add('default_locale', fieldMessages.choice(input.defaultLocale));
    }

    p.throwIfAny();
    return fields;
  }

  private async assertSlugFree(ctx: RequestContext, authorId: number, slug: string, exceptId: number | null) {
    const found = await this.access.findCollection(ctx, authorId, slug);
    if (found && found.id !== exceptId) throw errors.field('non_field_errors', DUPLICATE_SLUG);
  }
}
