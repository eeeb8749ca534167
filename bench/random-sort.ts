/**
 * Timings of `sort=random` searches through the PostgreSQL engine (database time per search, one at
 * a time): `node --no-warnings --import @swc-node/register/esm-register bench/random-sort.ts <url> [calls]`.
 * Prints p50/p95/max per filter shape (the home page's shelves: promoted categories, with and
 * without an application and a type; the v3 featured list) for the statements `search` sent before
 * postgres.random.ts (every match ordered by random()) and after, alternated call by call, and
 * with VERBOSE=1 the statements of the last call. `shown`: add-ons shown at least once, and the
 * least and most shown one's count against the mean (a fair draw: near 1 when calls x limit is
 * large against the matches).
 * Migrations are not run (MIGRATE=1 runs them first).
 */
import { App, AddonType, BADGED, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import { openDatabase } from '../src/db/database.js';
import { databaseSchema } from '../src/modules.js';
import { PostgresSearchEngine } from '../src/search/postgres.engine.js';
import { filterSql } from '../src/search/postgres.query.js';
import type { AddonSearchFilters } from '../src/search/search.port.js';

const url = process.argv[2];
/** KINDS=before measures the old statements alone (e.g. before the RandomSort migration's indexes exist). */
const kinds = (process.env.KINDS ?? 'before,after').split(',');
const argCalls = Number(process.argv[3] ?? 500);
/** `calls`: fewer for a shape whose old statement sorts a large part of the catalogue. */
const shapes: Record<string, { filters: AddonSearchFilters; limit: number; calls?: number }> = {
  recommended: { filters: { promoted: [PromotedCategory.RECOMMENDED] }, limit: 25 },
  'recommended+app+type (home shelf)': {
    filters: { promoted: [PromotedCategory.RECOMMENDED], app: App.BROWSER, types: [AddonType.EXTENSION] },
    limit: 4,
  },
  'line+app': { filters: { promoted: [PromotedCategory.LINE], app: App.BROWSER }, limit: 10 },
  badged: { filters: { promoted: BADGED }, limit: 25 },
  'featured+app (v3)': { filters: { featured: { app: App.BROWSER } }, limit: 10 },
  // Engine only (the search service asks for promoted or featured): a large set, every extension.
  'extensions (engine only)': { filters: { types: [AddonType.EXTENSION] }, limit: 25, calls: 50 },
};

const db = await openDatabase(
  { kind: 'postgres', url, poolMax: 4 },
  { ...databaseSchema, migrate: process.env.MIGRATE === '1' },
);
const engine = new PostgresSearchEngine(db);
const inner = (engine as any).execute;
let log: { ms: number; text: string }[] = [];
(engine as any).execute = async (q: { text: string }) => {
  const t = performance.now();
  const r = await inner(q);
  log.push({ ms: Math.round((performance.now() - t) * 10) / 10, text: q.text.replace(/\s+/g, ' ').slice(0, 160) });
  return r;
};
/** What `search` did before postgres.random.ts: order every match by random(), counted beside. */
const before = async (filters: AddonSearchFilters, limit: number) => {
  const where = filterSql(filters);
  const [hits, total] = await Promise.all([
    (engine as any).ordered(where, ['random'], null, 0, limit),
    (engine as any).count(where),
  ]);
  return { hits, total };
};
const after = (filters: AddonSearchFilters, limit: number) =>
  engine.search({ filters, sort: ['random'], offset: 0, limit });
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: q(0.5), p95: q(0.95), max: q(1) };
};
const round = (x: number) => Math.round(x * 100) / 100;
/** Add-ons shown at least once, and the least and most shown against the mean (matches never shown count 0). */
const spread = (counts: Map<number, number>, total: number) => {
  const values = [...counts.values()];
  const mean = values.reduce((x, y) => x + y, 0) / Math.max(total, 1);
  return {
    distinct: counts.size,
    min: round((values.length < total ? 0 : Math.min(...values)) / mean),
    max: round(Math.max(...values) / mean),
  };
};
for (const [name, { filters, limit, calls: shapeCalls }] of Object.entries(shapes)) {
  const calls = Math.min(shapeCalls ?? Infinity, argCalls);
  const times = { before: [] as number[], after: [] as number[] };
  const totals = { before: 0, after: 0 };
  /** How often each add-on was shown: a fair draw shows each about calls x limit / total times. */
  const shown = { before: new Map<number, number>(), after: new Map<number, number>() };
  let statements: typeof log = [];
  // Alternated call by call, so that both see the same machine.
  for (let i = 0; i < calls; i++) {
    for (const [kind, run] of [
      ['before', before],
      ['after', after],
    ] as const) {
      if (!kinds.includes(kind)) continue;
      log = [];
      const t = performance.now();
      const r = await run(filters, limit);
      times[kind].push(performance.now() - t);
      totals[kind] = r.total;
      for (const h of r.hits as { id: number }[]) shown[kind].set(h.id, (shown[kind].get(h.id) ?? 0) + 1);
      if (kind === 'after') statements = log;
    }
  }
  const b = stats(times.before);
  const a = stats(times.after);
  console.log(
    JSON.stringify({
      shape: name,
      calls,
      limit,
      total: totals,
      before: { p50: round(b.p50), p95: round(b.p95), max: round(b.max) },
      after: { p50: round(a.p50), p95: round(a.p95), max: round(a.max) },
      'p50 before/after': round(b.p50 / a.p50),
      'p95 before/after': round(b.p95 / a.p95),
      shown: { before: spread(shown.before, totals.before), after: spread(shown.after, totals.after) },
    }),
  );
  if (process.env.VERBOSE) console.log(statements);
}
await db.close();
