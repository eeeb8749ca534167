import type { EntityManager } from '@mikro-orm/postgresql';
import { inBlockRange } from '../blocklist/blocklist.service.js';
import { App, Channel, FileStatus } from '../catalogue/catalogue.enums.js';
import { catalogueUrls } from '../catalogue/catalogue.urls.js';
import { publicAddonSql } from '../catalogue/public.js';
import { sharedAnswer, type SharedAnswer } from '../core/http-caching.js';
import type { ResponseCache } from '../core/response-cache.js';
import { lookupRows } from '../db/rows.js';
import { isPossibleGuid, type CompatMode, type UpdateRequest } from './update-request.js';

/**
 * The update service (the original's `/update/VersionCheck.php`): the JSON update manifest Firefox
 * reads for one installed add-on, with the newest version it may update to.
 *
 * What is offered: the newest (highest id) version of a public add-on (`public.ts`: approved, not
 * disabled by its developer or the vendor, not deleted) that is listed, not deleted, whose file is
 * approved and signed, compatible with the caller's application (minimum at most the caller's
 * version; maximum per `compatMode`: see `CompatMode`) and not covered by a block of the add-on's
 * id (`inBlockRange`, the browser's version order). An add-on that is not public gets the
 * original's empty answer `{}`, as does an unknown id; a public add-on without such a version gets
 * `{"addons": {"<id>": {"updates": []}}}`. The add-on's own `update_url` is the browser's business:
 * an add-on whose manifest names one is asked there, never here, and listed versions cannot name
 * one (the linter's MANIFEST_UPDATE_URL), so nothing listed here is answered elsewhere.
 *
 * Answers are kept in the service's answer cache (`ResponseCache`) under the add-on's cache tag
 * `a:<id>`, whose version is read in the statement that computes the answer: every write to the
 * add-on, its versions, files and compatibility, and every change of a block of its id (the
 * BlockCacheTags migration), outdates them in every process. One statement per uncached check (the
 * add-on, its block, its candidates and its tag at once), one (the tag) per cached one.
 */

/** How long clients and CDNs may keep an answer (the original's `max-age`, one hour). */
export const UPDATE_MAX_AGE_SECONDS = 3600;

/** Versions read past the newest compatible one when the add-on's id is blocked (then the newest unblocked wins). */
const BLOCKED_CANDIDATES = 100;

export interface UpdateAnswer extends SharedAnswer {
  /** When the answer was computed (milliseconds, whole seconds): its `Last-Modified`. */
  readonly lastModified: number;
  /** The add-on answered for (its cache tag names it for CDNs), or null for an unknown id. */
  readonly addonId: number | null;
}

interface Candidate {
  version: string;
  file_id: number;
  filename: string;
  hash: string;
  strict: boolean;
  min: string;
  max: string;
  notes: boolean;
}

interface AddonRow {
  id: number;
  slug: string;
  public: boolean;
  tag_version: string;
  block_min: string | null;
  block_max: string | null;
  candidates: Candidate[] | null;
}

/** What `applications.gecko` may say of an update (Firefox's AddonUpdateChecker reads these). */
interface GeckoRange {
  strict_min_version: string;
  strict_max_version?: string;
}

export interface UpdateEntry {
  version: string;
  update_link: string;
  applications: { gecko: GeckoRange };
  update_hash?: string;
  update_info_url?: string;
}

/** The maximum-version condition of each compatibility mode (`f` the file, `vc` its compatibility). */
const MAX_CONDITION: Record<CompatMode, string> = {
  strict: 'and vc.max_int >= ?::bigint',
  normal: 'and (not f.strict_compatibility or vc.max_int >= ?::bigint)',
  ignore: 'and ?::bigint is not null',
};

/** One statement: the add-on by id (case-insensitive, as elsewhere), its block, its tag and its candidates. */
const CHECK_SQL = Object.fromEntries(
  (Object.keys(MAX_CONDITION) as CompatMode[]).map((mode) => [
    mode,
    `select a.id, a.slug, (${publicAddonSql('a')}) as public,
            coalesce((select t.version::text from cache_tags t where t.tag = 'a:' || a.id), '0') as tag_version,
            b.min_version as block_min, b.max_version as block_max, c.candidates
       from addons a
       left join lateral (
         select bl.min_version, bl.max_version from blocks bl where lower(bl.guid) = lower(a.guid) order by bl.id limit 1
       ) b on true
       left join lateral (
         select json_agg(json_build_object('version', x.version, 'file_id', x.file_id, 'filename', x.filename,
                  'hash', x.hash, 'strict', x.strict, 'min', x.min, 'max', x.max, 'notes', x.notes) order by x.id desc, x.file_id)
                  as candidates
           from (
             select v.id, v.version, f.id as file_id, f.filename, f.hash, f.strict_compatibility as strict,
                    vc.min, vc.max, coalesce(v.release_notes <> '{}'::jsonb, false) as notes
               from versions v
               join files f on f.version_id = v.id
               join version_compat vc on vc.version_id = v.id and vc.application = ?::smallint
              where v.addon_id = a.id and v.channel = ${Channel.LISTED} and not v.deleted
                and f.status = ${FileStatus.APPROVED} and f.is_signed
                and vc.min_int <= ?::bigint ${MAX_CONDITION[mode]}
              order by v.id desc, f.id
              limit case when b.min_version is null then 1 else ${BLOCKED_CANDIDATES} end
           ) x
       ) c on true
      where lower(a.guid) = lower(?::text)
      order by a.id
      limit 1`,
  ]),
) as Record<CompatMode, string>;

/** The application's name in the original's URLs (`/<locale>/<app>/…`). */
const APP_URL_NAMES: Partial<Record<App, string>> = { [App.BROWSER]: 'firefox', [App.ANDROID]: 'android' };

export class UpdatesService {
  /** Checks being computed, by cache key: concurrent misses of one key wait for the first. */
  private readonly inFlight = new Map<string, Promise<UpdateAnswer>>();

  /** The original's answer to a check missing a required parameter (400) and to an unknown add-on (200). */
  static readonly BAD_REQUEST: UpdateAnswer = { ...sharedAnswer(400, '{}'), lastModified: 0, addonId: null };

  constructor(private readonly cache: ResponseCache) {}

  /**
   * The answer to `request` (null: a required parameter is missing, the original's 400 `{}`), with
   * `baseUrl` the origin of the download links.
   */
  async check(em: EntityManager, request: UpdateRequest | null, baseUrl: string): Promise<UpdateAnswer> {
    if (!request) return UpdatesService.BAD_REQUEST;
    if (!isPossibleGuid(request.guid)) return unknownAddon();
    const key = `update ${baseUrl} ${request.app} ${request.appVersion} ${request.compatMode} ${request.guid}`;
    const cached = await this.cache.get(em, key);
    if (cached && isUpdateAnswer(cached)) return cached;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const computing = this.compute(em, request, baseUrl, key).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, computing);
    return computing;
  }

  private async compute(em: EntityManager, request: UpdateRequest, baseUrl: string, key: string) {
    const [row] = await lookupRows<AddonRow>(em, CHECK_SQL[request.compatMode], [
      request.app,
      request.appVersion,
      request.appVersion,
      request.guid,
    ]);
    if (!row) return unknownAddon();
    const manifest = row.public ? { addons: { [request.guid]: { updates: this.updates(row, request, baseUrl) } } } : {};
    const answer: UpdateAnswer = {
      ...sharedAnswer(200, JSON.stringify(manifest)),
      lastModified: wholeSeconds(Date.now()),
      addonId: row.id,
    };
    this.cache.set(key, answer, [`a:${row.id}`], [row.tag_version]);
    return answer;
  }

  private updates(row: AddonRow, request: UpdateRequest, baseUrl: string): UpdateEntry[] {
    const block = row.block_min !== null ? { minVersion: row.block_min, maxVersion: row.block_max ?? '*' } : null;
    const offered = (row.candidates ?? []).find((c) => !block || !inBlockRange(block, c.version));
    return offered ? [updateEntry(offered, row.slug, request.app, baseUrl)] : [];
  }
}

/** One update as Firefox reads it: the link, the hash of its bytes, the compatibility, the release notes page. */
export function updateEntry(candidate: Candidate, slug: string, app: App, baseUrl: string): UpdateEntry {
  const gecko: GeckoRange = { strict_min_version: candidate.min };
  // The maximum binds only files that ask for strict compatibility (Firefox then enforces it).
  if (candidate.strict) gecko.strict_max_version = candidate.max;
  const entry: UpdateEntry = {
    version: candidate.version,
    update_link: catalogueUrls.file(baseUrl, candidate.file_id, candidate.filename),
    applications: { gecko },
  };
  if (candidate.hash) entry.update_hash = candidate.hash;
  if (candidate.notes) entry.update_info_url = updateInfoUrl(baseUrl, app, slug, candidate.version);
  return entry;
}

/**
 * The release notes page of a version, in the original's form: Firefox puts its own locale in
 * place of `%APP_LOCALE%` when it asks for it.
 */
export function updateInfoUrl(baseUrl: string, app: App, slug: string, version: string): string {
  const appName = APP_URL_NAMES[app] ?? 'firefox';
  return `${baseUrl}/%APP_LOCALE%/${appName}/addon/${encodeURIComponent(slug)}/versions/${encodeURIComponent(version)}/updateinfo/`;
}

function unknownAddon(): UpdateAnswer {
  return { ...EMPTY, lastModified: wholeSeconds(Date.now()), addonId: null };
}

const EMPTY = sharedAnswer(200, '{}');

const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

function isUpdateAnswer(answer: SharedAnswer): answer is UpdateAnswer {
  return typeof (answer as Partial<UpdateAnswer>).lastModified === 'number';
}
