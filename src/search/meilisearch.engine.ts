import { Meilisearch, type Index } from 'meilisearch';
import { App } from '../catalogue/catalogue.enums.js';
import { publicAddonSql } from '../catalogue/public.js';
import type { Database } from '../db/database.js';
import { intArray } from '../db/sql.js';
import type {
  AddonSearchHit,
  AddonSearchQuery,
  AddonSearchResult,
  AddonSort,
  Range,
  SearchEngine,
} from './search.port.js';

/** One add-on as indexed. Only public add-ons are in the index. */
interface AddonDocument {
  id: number;
  slug: string;
  guid: string | null;
  type: number;
  name_text: string;
  summary_text: string;
  tags_text: string;
  description_text: string;
  tags: string[];
  category_ids: number[];
  compat_apps: number[];
  [compat: `compat_${'min' | 'max'}_${number}`]: number;
  platforms: number[];
  promoted_category: number | null;
  promoted_apps: number[];
  is_recommended: number;
  author_ids: number[];
  author_usernames: string[];
  /** `app:locale` keys, locale empty for the application's global list. */
  featured: string[];
  color_keys: string[];
  average_daily_users: number;
  weekly_downloads: number;
  hotness: number;
  average_rating: number;
  bayesian_rating: number;
  created: number;
  last_updated: number;
}

const SORT_FIELDS: Record<Exclude<AddonSort, 'relevance' | 'random'>, string> = {
  created: 'created',
  downloads: 'weekly_downloads',
  hotness: 'hotness',
  rating: 'bayesian_rating',
  updated: 'last_updated',
  users: 'average_daily_users',
  recommended: 'is_recommended',
};

const ALL_APPS = Object.values(App);

const RANGE_OPERATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** One Meilisearch comparison per bound of `range` on `field`, values converted to the document's. */
function rangeFilter<T>(field: string, range: Range<T>, value: (v: T) => number): string[] {
  return (Object.keys(RANGE_OPERATORS) as (keyof typeof RANGE_OPERATORS)[]).flatMap((key) => {
    const bound = range[key];
    return bound === undefined ? [] : [`${field} ${RANGE_OPERATORS[key]} ${value(bound)}`];
  });
}
/** `random` shuffles at most this many matches (featured and promoted sets are small). */
const RANDOM_POOL = 1_000;

const colorKey = (h: number, s: number, l: number) =>
  `${Math.floor(h / 30) % 12}:${Math.floor(s / 25)}:${Math.floor(l / 25)}`;

/**
 * The Meilisearch adapter: documents are built from the database (`index(ids)` upserts public
 * add-ons and removes the rest), filters and sorts are translated to Meilisearch's syntax, counts
 * come from exhaustive page-mode searches (`totalHits`), so `count` stays exact.
 */
export class MeilisearchEngine implements SearchEngine {
  readonly name = 'meilisearch' as const;
  private readonly index_: Index<AddonDocument>;
  private settingsApplied: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    options: { url: string; apiKey?: string; indexName?: string },
  ) {
    const client = new Meilisearch({ host: options.url, apiKey: options.apiKey });
    this.index_ = client.index<AddonDocument>(options.indexName ?? 'addons');
  }

  /** Searchable, filterable and sortable attributes and ranking rules (applied once per process). */
  ensureSettings(): Promise<void> {
    this.settingsApplied ??= (async () => {
      await this.index_
        .updateSettings({
          searchableAttributes: ['name_text', 'summary_text', 'tags_text', 'description_text'],
          filterableAttributes: [
            'id',
            'slug',
            'guid',
            'type',
            'tags',
            'category_ids',
            'compat_apps',
            ...ALL_APPS.flatMap((app) => [`compat_min_${app}`, `compat_max_${app}`]),
            'platforms',
            'promoted_category',
            'promoted_apps',
            'author_ids',
            'author_usernames',
            'featured',
            'color_keys',
            'average_daily_users',
            'average_rating',
            'created',
            'last_updated',
          ],
          sortableAttributes: [...Object.values(SORT_FIELDS), 'id'],
          rankingRules: [
            'words',
            'typo',
            'proximity',
            'attribute',
            'sort',
            'exactness',
            'is_recommended:desc',
            'average_daily_users:desc',
          ],
          pagination: { maxTotalHits: 10_000_000 },
        })
        .waitTask();
    })().catch((error) => {
      this.settingsApplied = null;
      throw error;
    });
    return this.settingsApplied;
  }

  async search(query: AddonSearchQuery): Promise<AddonSearchResult> {
    await this.ensureSettings();
    const filter = this.filter(query);
    if (query.sort[0] === 'random') return this.random(query, filter);
    const relevance = Boolean(query.filters.q) && query.sort.includes('relevance');
    const page = Math.floor(query.offset / query.limit) + 1;
    const response = await this.index_.search(query.filters.q ?? '', {
      filter,
      sort: this.sort(query.sort),
      hitsPerPage: query.limit,
      page,
      attributesToRetrieve: ['id'],
      showRankingScore: relevance,
    });
    const hits = response.hits.map((h) => ({ id: h.id, score: relevance ? (h._rankingScore ?? null) : null }));
    return { hits, total: response.totalHits ?? hits.length };
  }

  async autocomplete(query: AddonSearchQuery): Promise<AddonSearchHit[]> {
    await this.ensureSettings();
    const response = await this.index_.search(query.filters.q ?? '', {
      filter: this.filter(query),
      sort: query.filters.q ? undefined : this.sort(query.sort),
      limit: query.limit,
      attributesToRetrieve: ['id'],
      attributesToSearchOn: query.filters.q ? ['name_text'] : undefined,
    });
    return response.hits.map((h) => ({ id: h.id, score: null }));
  }

  async index(addonIds: readonly number[]): Promise<void> {
    if (!addonIds.length) return;
    await this.ensureSettings();
    const documents = await this.documents(addonIds);
    const present = new Set(documents.map((d) => d.id));
    const gone = addonIds.filter((id) => !present.has(id));
    if (documents.length) await this.index_.addDocuments(documents, { primaryKey: 'id' }).waitTask();
    if (gone.length) await this.index_.deleteDocuments([...gone]).waitTask();
  }

  private async documents(ids: readonly number[]): Promise<AddonDocument[]> {
    const rows = await this.db
      .fork()
      .getConnection()
      .execute<Record<string, unknown>[]>(
        `select a.id, a.slug, lower(a.guid) as guid, a.type,
              addons_translations_text(a.name) as name_text, addons_translations_text(a.summary) as summary_text,
              addons_tags_text(a.tags) as tags_text, addons_translations_text(a.description) as description_text,
              a.tags, a.category_ids, a.compat_apps, a.compat_min, a.compat_max, a.platforms,
              a.promoted_category, a.promoted_apps, a.colors,
              a.average_daily_users, a.weekly_downloads, a.hotness, a.average_rating, a.bayesian_rating,
              extract(epoch from a.created)::float8 as created, coalesce(extract(epoch from a.last_updated), 0)::float8 as last_updated,
              coalesce((select array_agg(au.user_id) from addon_users au where au.addon_id = a.id and au.listed), '{}') as author_ids,
              coalesce((select array_agg(u.username) from addon_users au join users u on u.id = au.user_id
                         where au.addon_id = a.id and au.listed), '{}') as author_usernames,
              coalesce((select array_agg(f.application || ':' || coalesce(f.locale, '')) from featured_addons f
                         where f.addon_id = a.id), '{}') as featured
         from addons a
        where a.id = any(?::int[]) and ${publicAddonSql('a')}`,
        [intArray(ids)],
      );
    return rows.map((row) => {
      const apps = (row.compat_apps as number[]).map(Number);
      const doc = {
        ...(row as object),
        compat_apps: apps,
        category_ids: (row.category_ids as number[]).map(Number),
        platforms: (row.platforms as number[]).map(Number),
        promoted_apps: (row.promoted_apps as number[]).map(Number),
        is_recommended: row.promoted_category === 2 ? 1 : 0,
        color_keys: ((row.colors as { h: number; s: number; l: number }[] | null) ?? []).map((c) =>
          colorKey(c.h, c.s, c.l),
        ),
      } as unknown as AddonDocument & { compat_min?: unknown; compat_max?: unknown; colors?: unknown };
      apps.forEach((app, i) => {
        doc[`compat_min_${app}`] = Number((row.compat_min as string[])[i]);
        doc[`compat_max_${app}`] = Number((row.compat_max as string[])[i]);
      });
      delete doc.compat_min;
      delete doc.compat_max;
      delete doc.colors;
      return doc;
    });
  }

  private filter({ filters: f }: AddonSearchQuery): string[] {
    const list = (values: readonly (string | number)[]) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
    const out: string[] = [];
    if (f.types?.length) out.push(`type IN ${list(f.types)}`);
    if (f.app) {
      out.push(`compat_apps = ${f.app}`);
      if (f.appVersion)
        out.push(`compat_min_${f.app} <= ${f.appVersion.min} AND compat_max_${f.app} >= ${f.appVersion.max}`);
    }
    const authors = [
      ...(f.authorIds?.length ? [`author_ids IN ${list(f.authorIds)}`] : []),
      ...(f.authorUsernames?.length ? [`author_usernames IN ${list(f.authorUsernames)}`] : []),
    ];
    if (authors.length) out.push(`(${authors.join(' OR ')})`);
    if (f.categoryId !== undefined) out.push(`category_ids = ${f.categoryId}`);
    if (f.excludeIds?.length) out.push(`id NOT IN ${list(f.excludeIds)}`);
    if (f.excludeSlugs?.length) out.push(`slug NOT IN ${list(f.excludeSlugs)}`);
    if (f.guids?.length) out.push(`guid IN ${list(f.guids.map((g) => g.toLowerCase()))}`);
    if (f.platform) out.push(`platforms IN ${list([f.platform, 1])}`);
    if (f.promoted?.length) {
      out.push(`promoted_category IN ${list(f.promoted)}`);
      if (f.app) out.push(`promoted_apps = ${f.app}`);
    }
    for (const tag of f.tags ?? []) out.push(`tags = ${JSON.stringify(tag)}`);
    if (f.featured) {
      const apps = f.featured.app ? [f.featured.app] : ALL_APPS;
      const locale = f.featured.locale;
      if (locale === undefined) out.push(apps.map((app) => `featured STARTS WITH "${app}:"`).join(' OR '));
      else out.push(`featured IN ${list(apps.flatMap((app) => [`${app}:`, ...(locale ? [`${app}:${locale}`] : [])]))}`);
    }
    if (f.color) {
      const { h, s, l } = f.color;
      const keys: string[] = [];
      for (const dh of [-30, 0, 30])
        for (const ds of [-25, 0, 25])
          for (const dl of [-25, 0, 25]) {
            const ss = s + ds;
            const ll = l + dl;
            if (ss >= 0 && ss <= 100 && ll >= 0 && ll <= 100) keys.push(colorKey((h + dh + 360) % 360, ss, ll));
          }
      out.push(`color_keys IN ${list([...new Set(keys)])}`);
    }
    // Dates are indexed as epoch seconds; `last_updated` 0 is "never updated", which no bound matches.
    const seconds = (d: Date) => d.getTime() / 1000;
    if (f.users) out.push(...rangeFilter('average_daily_users', f.users, Number));
    if (f.ratings) out.push(...rangeFilter('average_rating', f.ratings, Number));
    if (f.created) out.push(...rangeFilter('created', f.created, seconds));
    if (f.updated) out.push('last_updated != 0', ...rangeFilter('last_updated', f.updated, seconds));
    return out;
  }

  /** Sorts before `relevance` become Meilisearch sorts; relevance itself is its ranking rules. */
  private sort(sorts: AddonSort[]): string[] | undefined {
    const fields: string[] = [];
    for (const sort of sorts) {
      if (sort === 'relevance' || sort === 'random') break;
      fields.push(`${SORT_FIELDS[sort]}:desc`);
    }
    return fields.length ? [...fields, 'id:desc'] : undefined;
  }

  private async random(query: AddonSearchQuery, filter: string[]): Promise<AddonSearchResult> {
    const response = await this.index_.search('', { filter, limit: RANDOM_POOL, attributesToRetrieve: ['id'] });
    const ids = response.hits.map((h) => h.id);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j], ids[i]];
    }
    return {
      hits: ids.slice(query.offset, query.offset + query.limit).map((id) => ({ id, score: null })),
      total: ids.length,
    };
  }
}
