import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { selectRows } from '../db/rows.js';
import type { AddonRecord } from './catalogue.records.js';
import { addonById } from './catalogue.loaders.js';
import { AddonType, type App } from './catalogue.enums.js';
import { appVersionParam } from './catalogue.service.js';
import { publicAddonSql, visibleVersionSql } from './public.js';

/** The most language tools one answer lists (the original lists them all: a few hundred). */
export const LANGUAGE_TOOLS_MAX = 2_000;
/** At most this many author names filter one list. */
const MAX_AUTHORS = 20;

export interface LanguageToolsFilter {
  app: App;
  /** Language packs or dictionaries; both when absent (then `appVersion` is refused). */
  type?: AddonType | null;
  /** Only language packs with a public version compatible with this application version. */
  appVersion?: string | null;
  /** Listed authors' usernames (any one). */
  authors?: readonly string[] | null;
}

/**
 * The public language packs and dictionaries for an application (the original's language tools:
 * its catalogue page, and the browser's own language and dictionary settings). Not paginated: the
 * whole list, ordered by id. With `appVersion`, language packs without a compatible public version
 * are left out (each answer's `currentVersion(app, appVersion)` is that version).
 */
export class LanguageToolsService {
  async list(ctx: RequestContext, filter: LanguageToolsFilter): Promise<AddonRecord[]> {
    const types = filter.type ? [filter.type] : [AddonType.LANGUAGE, AddonType.DICTIONARY];
    if (types.some((t) => t !== AddonType.LANGUAGE && t !== AddonType.DICTIONARY)) {
      throw errors.badRequest('Invalid "type" parameter.');
    }
    let versionInt: number | null = null;
    if (filter.appVersion) {
      if (!filter.type) throw errors.badRequest('Invalid "type" parameter: required with "appversion".');
      versionInt = appVersionParam(filter.appVersion);
    }
    const authors = (filter.authors ?? []).slice(0, MAX_AUTHORS);
    const params: unknown[] = [filter.app];
    // Types are the enum's integers (checked above): written in the statement.
    let sql = `select a.id from addons a where ${publicAddonSql('a')} and a.type in (${types.map(Number).join(', ')})
      and ? = any(a.compat_apps)`;
    if (versionInt !== null && filter.type === AddonType.LANGUAGE) {
      sql += ` and exists (select 1 from versions v join version_compat c on c.version_id = v.id and c.application = ?
        where v.addon_id = a.id and ${visibleVersionSql('v')} and c.min_int <= ? and c.max_int >= ?)`;
      params.push(filter.app, versionInt, versionInt);
    }
    if (authors.length) {
      sql += ` and exists (select 1 from addon_users au join users u on u.id = au.user_id
        where au.addon_id = a.id and au.listed and u.username in (${authors.map(() => '?').join(', ')}))`;
      params.push(...authors);
    }
    sql += ` order by a.id limit ${LANGUAGE_TOOLS_MAX}`;
    const rows = await selectRows<{ id: number }>(ctx.em, sql, params);
    const addons = await ctx.loaders.get(addonById).loadMany(rows.map((r) => r.id));
    return addons.filter((a): a is AddonRecord => !!a && !(a instanceof Error));
  }
}
