import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { pageRequest, toPage, type Page, type PageRequest } from '../core/pagination.js';
import { selectRows } from '../db/rows.js';
import { lengthProblem } from '../core/text-limits.js';
import { Addon } from './addon.entity.js';
import { AddonStatus, AddonType, Channel, versionInt, type App } from './catalogue.enums.js';
import {
  addonById,
  addonByLowerGuid,
  addonBySlug,
  compatByVersionId,
  latestUnlistedVersionIdByAddonId,
  versionById,
} from './catalogue.loaders.js';
import { addonIdByGuid, canSeeAddon, canSeeUnlisted, existingAddon, isAuthor } from './addon-access.js';
import { canViewDeleted, isListedReviewer } from './catalogue.permissions.js';
import {
  VERSION_COLUMNS,
  toVersionRecord,
  type AddonRecord,
  type RowRef,
  type VersionRecord,
  type VersionRow,
} from './catalogue.records.js';
import { approvedFileSql, isPublicAddon, visibleVersionSql } from './public.js';
import { canSeeVersion, existingVersion } from './version-access.js';

/** Ids that look like guids: `{uuid}` or `something@domain` (the original's rule). */
const GUID = /^(\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}|[a-z0-9-._]*@[a-z0-9-._]+)$/i;

/** Whether an add-on identifier reads as a guid (abuse reports accept guids unknown to the site). */
export function looksLikeGuid(identifier: string): boolean {
  return GUID.test(identifier);
}

/** How an add-on identifier reads: an id (all digits), a guid, or else a slug. */
type AddonKey = { id: number } | { guid: string } | { slug: string };

function addonKey(identifier: string): AddonKey | null {
  if (identifier.includes('\0')) return null; // PostgreSQL text cannot hold it: nothing matches
  if (/^\d+$/.test(identifier)) {
    const id = Number(identifier);
    return Number.isSafeInteger(id) && id <= 2_147_483_647 ? { id } : null;
  }
  return GUID.test(identifier) ? { guid: identifier } : { slug: identifier };
}

export type VersionFilter = 'default' | 'all_without_unlisted' | 'all_with_unlisted' | 'all_with_deleted';

/** The `filter` values a client may name; absent or empty means `default` (listed, approved). */
export const VERSION_FILTERS: readonly VersionFilter[] = [
  'all_without_unlisted',
  'all_with_unlisted',
  'all_with_deleted',
];

/**
 * A version list's `filter` as a client gave it (REST query string, GraphQL argument): absent or
 * empty is `default`; anything else must be a named filter (the original's message otherwise).
 * An unknown value never widens the list.
 */
export function versionFilter(value: string | null | undefined): VersionFilter {
  if (value === null || value === undefined || value === '') return 'default';
  if (!VERSION_FILTERS.includes(value as VersionFilter)) {
    throw errors.badParameter('Invalid "filter" parameter specified.');
  }
  return value as VersionFilter;
}

/** An application version (`appversion`) as a comparable integer; the original's 400 otherwise. */
export function appVersionParam(value: string): number {
  const parsed = versionInt(value);
  if (parsed === null) throw errors.badRequest('Invalid "appversion" parameter.');
  return parsed;
}

/** The `where` of a version list: `?` is the add-on id. */
function versionFilterSql(filter: VersionFilter): string {
  const parts = ['v.addon_id = ?'];
  if (filter !== 'all_with_deleted') parts.push('not v.deleted');
  if (filter === 'default' || filter === 'all_without_unlisted') parts.push(`v.channel = ${Channel.LISTED}`);
  if (filter === 'default') {
    parts.push(approvedFileSql('v'));
  }
  return parts.join(' and ');
}

/** Rules of reading the catalogue: lookups, who may see what, versions. Reads return records. */
/** Ids one `addons` query may ask for (a page of search results is at most 50). */
export const ADDONS_BY_ID_MAX = 50;

export class CatalogueService {
  /** Public: approved, not disabled by its developer, with a listed current version (`public.ts`). */
  isPublic(addon: AddonRecord): boolean {
    return isPublicAddon(addon);
  }

  /** The caller is an author of the add-on (`addon-access.ts`). */
  isAuthor(ctx: RequestContext, addon: RowRef): Promise<boolean> {
    return isAuthor(ctx, addon.id);
  }

  /** Authors and unlisted reviewers see unlisted versions. */
  canSeeUnlisted(ctx: RequestContext, addon: RowRef): Promise<boolean> {
    return canSeeUnlisted(ctx, addon.id);
  }

  /** By id (all digits), guid (case-insensitive) or slug, as a read-only record. Not found: null. */
  async find(ctx: RequestContext, identifier: string): Promise<AddonRecord | null> {
    const key = addonKey(identifier);
    if (!key) return null;
    if ('id' in key) return ctx.loaders.get(addonById).load(key.id);
    const addon =
      'guid' in key
        ? await ctx.loaders.get(addonByLowerGuid).load(key.guid.toLowerCase())
        : await ctx.loaders.get(addonBySlug).load(key.slug);
    // Its versions' URLs ask for it by id.
    if (addon) ctx.loaders.get(addonById).prime(addon.id, addon);
    return addon;
  }

  /** The same lookup as a managed entity, for changes. Not found: null. */
  async lookup(ctx: RequestContext, identifier: string): Promise<Addon | null> {
    const key = addonKey(identifier);
    if (!key) return null;
    if ('slug' in key) return ctx.em.findOne(Addon, { slug: key.slug });
    if ('id' in key) return ctx.em.findOne(Addon, { id: key.id });
    const id = await addonIdByGuid(ctx.em, key.guid);
    return id === null ? null : ctx.em.findOne(Addon, { id });
  }

  /**
   * The add-on as the detail endpoint shows it: deleted ones are 404 (except for Addons:ViewDeleted);
   * non-public ones need an author or a reviewer (401 anonymous, 403 otherwise, with the
   * disabled-by-developer and disabled-by-vendor flags in the body).
   */
  async getAddon(ctx: RequestContext, identifier: string): Promise<AddonRecord> {
    const addon = existingAddon(ctx, await this.find(ctx, identifier), 'viewDeleted');
    if (await this.canView(ctx, addon)) return addon;
    const details = {
      is_disabled_by_developer: addon.disabledByUser,
      is_disabled_by_vendor: addon.status === AddonStatus.DISABLED,
    };
    throw ctx.viewer.isAuthenticated ? errors.forbidden(undefined, details) : errors.notAuthenticated(details);
  }

  /**
   * Whether the caller may see this add-on as the detail endpoint shows it: public ones for
   * anyone; non-public ones for authors and reviewers of its channels; deleted ones only for
   * Addons:ViewDeleted. Batched (loaders): nested objects of a list check each item this way.
   */
  canView(ctx: RequestContext, addon: AddonRecord): Promise<boolean> {
    return canSeeAddon(ctx, addon);
  }

  /** Add-ons by id, each as `addon` shows it (null where `getAddon` would refuse); at most ADDONS_BY_ID_MAX. */
  async visibleAddons(ctx: RequestContext, ids: readonly number[]): Promise<(AddonRecord | null)[]> {
    if (ids.length > ADDONS_BY_ID_MAX) throw errors.badRequest(`At most ${ADDONS_BY_ID_MAX} ids.`);
    const addons = await Promise.all(ids.map((id) => ctx.loaders.get(addonById).load(id)));
    const visible = await canSeeAddon.each(ctx, addons);
    return addons.map((addon, i) => (visible[i] ? addon : null));
  }

  /** The add-on by id when the caller may see it (`canView`), else null: what nested fields return. */
  async visibleAddon(ctx: RequestContext, addonId: number): Promise<AddonRecord | null> {
    const addon = await ctx.loaders.get(addonById).load(addonId);
    return addon && (await this.canView(ctx, addon)) ? addon : null;
  }

  /**
   * Whether the caller may see this version of a visible add-on, as the version endpoint shows it
   * (see `getVersion`; the rule is `version-access.ts`'s `canSeeVersion`).
   */
  canViewVersion(ctx: RequestContext, addon: AddonRecord, version: VersionRecord): Promise<boolean> {
    return canSeeVersion(ctx, addon, version);
  }

  /** The version by id when the caller may see it and its add-on, else null: what nested fields return. */
  async visibleVersion(ctx: RequestContext, versionId: number): Promise<VersionRecord | null> {
    const version = await ctx.loaders.get(versionById).load(versionId);
    if (!version) return null;
    const addon = await this.visibleAddon(ctx, version.addon.id);
    return addon && (await this.canViewVersion(ctx, addon, version)) ? version : null;
  }

  /**
   * The current version, or for a language pack with `app` and `appVersion` the latest public
   * listed version compatible with that application version, when there is one.
   */
  async currentVersion(
    ctx: RequestContext,
    addon: AddonRecord,
    app?: App | null,
    appVersion?: string | null,
  ): Promise<VersionRecord | null> {
    const appVersionInt = appVersion === null || appVersion === undefined ? null : appVersionParam(appVersion);
    if (addon.type === AddonType.LANGUAGE && app && appVersionInt) {
      const [row] = await selectRows<{ id: number }>(
        ctx.em,
        `select v.id from versions v
           join version_compat c on c.version_id = v.id and c.application = ?
          where v.addon_id = ? and ${visibleVersionSql('v')}
            and c.min_int <= ? and c.max_int >= ?
          order by v.id desc limit 1`,
        [app, addon.id, appVersionInt, appVersionInt],
      );
      if (row) return ctx.loaders.get(versionById).load(row.id);
    }
    return addon.currentVersion ? ctx.loaders.get(versionById).load(addon.currentVersion.id) : null;
  }

  async latestUnlistedVersion(ctx: RequestContext, addon: RowRef): Promise<VersionRecord | null> {
    if (!(await this.canSeeUnlisted(ctx, addon))) return null;
    const id = await ctx.loaders.get(latestUnlistedVersionIdByAddonId).load(addon.id);
    return id === null ? null : ctx.loaders.get(versionById).load(id);
  }

  /**
   * Versions, newest first. `default`: listed versions with an approved file;
   * `all_without_unlisted` (reviewers, authors), `all_with_unlisted` (unlisted reviewers, authors),
   * `all_with_deleted` (Addons:ViewDeleted).
   */
  async listVersions(
    ctx: RequestContext,
    identifier: string,
    filterValue: string | null | undefined,
    page?: number | null,
    pageSize?: number | null,
  ): Promise<Page<VersionRecord>> {
    const filter = versionFilter(filterValue);
    const addon = await this.getAddon(ctx, identifier);
    await this.assertVersionFilterAllowed(ctx, addon, filter);
    const request = pageRequest(page, pageSize);
    const where = versionFilterSql(filter);
    const [[{ count }], items] = await Promise.all([
      selectRows<{ count: number }>(ctx.em, `select count(*)::int as count from versions v where ${where}`, [addon.id]),
      this.versionPage(ctx, where, addon.id, request),
    ]);
    return toPage(request, count, items);
  }

  private async versionPage(ctx: RequestContext, where: string, addonId: number, request: PageRequest) {
    const rows = await selectRows<VersionRow>(
      ctx.em,
      `select ${VERSION_COLUMNS} from versions v where ${where} order by v.created desc, v.id desc limit ? offset ?`,
      [addonId, request.limit, request.offset],
    );
    const db = ctx.em.getPlatform();
    return rows.map((row) => toVersionRecord(row, db));
  }

  private async assertVersionFilterAllowed(ctx: RequestContext, addon: RowRef, filter: VersionFilter) {
    let allowed = true;
    if (filter === 'all_without_unlisted') allowed = isListedReviewer(ctx.viewer) || (await this.isAuthor(ctx, addon));
    if (filter === 'all_with_unlisted') allowed = await this.canSeeUnlisted(ctx, addon);
    if (filter === 'all_with_deleted') allowed = canViewDeleted(ctx.viewer);
    if (!allowed) throw ctx.viewer.isAuthenticated ? errors.forbidden() : errors.notAuthenticated();
  }

  /**
   * One version of the add-on: deleted ones only for Addons:ViewDeleted, unlisted ones for authors
   * and unlisted reviewers, listed ones without an approved file for authors and reviewers.
   */
  /** A version of the add-on by id, or by its number (`2.2`; the newest of that number, deleted ones last). */
  async getVersion(
    ctx: RequestContext,
    identifier: string,
    versionId: number | null,
    number: string | null = null,
  ): Promise<VersionRecord> {
    const addon = await this.getAddon(ctx, identifier);
    if (versionId === null) {
      if (number === null) throw errors.badRequest('A version id or number is required.');
      versionId = lengthProblem(number, 255) ? -1 : await this.versionIdByNumber(ctx, addon.id, number);
    }
    const found = await ctx.loaders.get(versionById).load(versionId);
    const version = existingVersion(ctx, found?.addon.id === addon.id ? found : null, 'viewDeleted');
    if (!(await this.canViewVersion(ctx, addon, version)))
      throw ctx.viewer.isAuthenticated ? errors.forbidden() : errors.notAuthenticated();
    return version;
  }

  private async versionIdByNumber(ctx: RequestContext, addonId: number, number: string): Promise<number> {
    const [row] = await selectRows<{ id: number }>(
      ctx.em,
      'select id from versions where addon_id = ? and version = ? order by deleted, id desc limit 1',
      [addonId, number],
    );
    return row?.id ?? -1;
  }

  async compatibility(ctx: RequestContext, version: RowRef) {
    return ctx.loaders.get(compatByVersionId).load(version.id);
  }
}
