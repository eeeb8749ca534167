import { publicAddonSql } from '../../catalogue/public.js';
import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { FieldErrorCollector } from '../../core/field-errors.js';
import { fieldMessages } from '../../core/messages.js';
import { pageRequest, toPage, type Page } from '../../core/pagination.js';
import { lengthProblem } from '../../core/text-limits.js';
import type { CuratedKind, CurationLog } from '../../curation/curation-log.js';
import { selectRows } from '../../db/rows.js';
import { ReplacementAddon } from './replacement.entity.js';
import { DISCOVERY_TEXT_LIMITS } from '../text-limits.js';

/** A replacement as listed: the add-on ids its path stands for (public add-ons only). */
export interface ReplacementView {
  guid: string;
  path: string;
  replacement: string[];
}

const KIND: CuratedKind<ReplacementAddon> = {
  subject: 'replacement_addon',
  key: 'replacement',
  facts: (row) => ({ guid: row.guid, path: row.path }),
};

/** An add-on page: `/addon/<id or slug>/`, after any locale and application. */
const ADDON_PATH = /\/addon\/([^/<>"']+)\/$/;
/** A collection page: `/collections/<user id or username>/<slug>/`. */
const COLLECTION_PATH = /\/collections\/([^/<>"']+)\/([^/]+)\/$/;
/** A path of this site: no scheme, host, spaces, query or fragment. */
const SITE_PATH = /^\/[^\s<>"'?#\\]*$/;

/** A path segment as text (a malformed escape stays as written). */
function segment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An absolute URL elsewhere (the original's `path_is_external`: it has a scheme and a host). */
function isExternal(path: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
}

/**
 * Replacement add-ons (the original's): for an add-on id no longer supported, the path of what
 * replaces it here (an add-on or a collection page) or a URL elsewhere. The list resolves each
 * path to add-on ids as the original does: an add-on page to its add-on when public, a listed
 * collection to its public add-ons, anything else (and an external URL) to none. Curated by
 * `Admin:Curation` holders (the original's admin permission), each change in the curation log.
 */
export class ReplacementsService {
  constructor(private readonly log: CurationLog) {}

  async list(ctx: RequestContext, page?: number | null, pageSize?: number | null): Promise<Page<ReplacementView>> {
    const request = pageRequest(page, pageSize);
    const [rows, count] = await ctx.em.findAndCount(
      ReplacementAddon,
      {},
      { orderBy: { id: 'asc' }, limit: request.limit, offset: request.offset },
    );
    const items: ReplacementView[] = [];
    for (const row of rows)
      items.push({ guid: row.guid, path: row.path, replacement: await this.resolve(ctx, row.path) });
    return toPage(request, count, items);
  }

  /** Sets the replacement of `guid` (created, or its path changed). */
  async set(ctx: RequestContext, guid: string, path: string): Promise<ReplacementView> {
    const p = new FieldErrorCollector();
    const id = guid.trim();
    if (!p.check('guid', lengthProblem(id, DISCOVERY_TEXT_LIMITS.replacementGuid)) && !id)
      p.add('guid', fieldMessages.blank);
    const target = p.check('path', lengthProblem(path, DISCOVERY_TEXT_LIMITS.replacementPath))
      ? null
      : this.checkPath(ctx, path.trim(), p);
    p.throwIfAny();
    const existing = await ctx.em.findOne(ReplacementAddon, { guid: id });
    if (existing) {
      const before = KIND.facts(existing);
      existing.path = target!;
      await this.log.update(ctx, KIND, existing, before);
    } else {
      const row = ctx.em.create(ReplacementAddon, { guid: id, path: target! });
      await this.log.create(ctx, KIND, row);
    }
    return { guid: id, path: target!, replacement: await this.resolve(ctx, target!) };
  }

  /** Removes the replacement of `guid` (404 when there is none). */
  async remove(ctx: RequestContext, guid: string): Promise<boolean> {
    if (lengthProblem(guid, DISCOVERY_TEXT_LIMITS.replacementGuid)) throw errors.notFound();
    const row = await ctx.em.findOne(ReplacementAddon, { guid: guid.trim() });
    if (!row) throw errors.notFound();
    await this.log.delete(ctx, KIND, row);
    return true;
  }

  /**
   * The original's form rule: a URL elsewhere must be a valid http(s) URL, and not one of this
   * site (whose pages are given as paths); a path of this site gets its leading `/`.
   */
  private checkPath(ctx: RequestContext, path: string, p: FieldErrorCollector): string | null {
    if (!path) return p.add('path', fieldMessages.blank);
    if (isExternal(path)) {
      const site = new URL(ctx.request.baseUrl).origin;
      if (path.startsWith(site)) {
        return p.add('path', `Paths for [${site}] should be relative, not full URLs including the domain name`);
      }
      const url = URL.canParse(path) ? new URL(path) : null;
      if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) {
        return p.add('path', `Path [${path}] is not valid`);
      }
      return path;
    }
    const local = path.startsWith('/') ? path : `/${path}`;
    if (p.check('path', lengthProblem(local, DISCOVERY_TEXT_LIMITS.replacementPath))) return null;
    if (!SITE_PATH.test(local)) return p.add('path', `Path [${local}] is not valid`);
    return local;
  }

  /** The add-on ids a path stands for (see the class). */
  private async resolve(ctx: RequestContext, path: string): Promise<string[]> {
    if (isExternal(path)) return [];
    const addon = ADDON_PATH.exec(path);
    if (addon) {
      const key = segment(addon[1]!);
      const byId = /^\d+$/.test(key) && Number(key) <= 2 ** 31 - 1;
      const rows = await selectRows<{ guid: string | null }>(
        ctx.em,
        `select a.guid from addons a where ${byId ? 'a.id = ?' : 'a.slug = ?'} and ${publicAddonSql('a')}`,
        [byId ? Number(key) : key],
      );
      return rows.flatMap((row) => (row.guid ? [row.guid] : []));
    }
    const collection = COLLECTION_PATH.exec(path);
    if (collection) {
      const [owner, slug] = [segment(collection[1]!), segment(collection[2]!)];
      const byId = /^\d+$/.test(owner) && Number(owner) <= 2 ** 31 - 1;
      const rows = await selectRows<{ guid: string | null }>(
        ctx.em,
        `select a.guid from collections c
           join users u on u.id = c.author_id
           join collection_addons ca on ca.collection_id = c.id
           join addons a on a.id = ca.addon_id
          where c.slug = ? and c.listed and ${byId ? 'u.id = ?' : 'u.username = ?'} and ${publicAddonSql('a')}
          order by ca.id`,
        [slug, byId ? Number(owner) : owner],
      );
      return rows.flatMap((row) => (row.guid ? [row.guid] : []));
    }
    return [];
  }
}
