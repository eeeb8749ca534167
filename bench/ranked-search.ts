// Long-tail searches through the PostgreSQL search engine, before (`rankedIndex: false`: today's
// paths) and after (the ranked text index, where the rum extension and its index exist), alternately
// on the same database; the answers are compared (hits, order, scores) and the engine time per search
// printed (p50/p95/max). Words picked as bench/catalogue.ts picks its long tail (`nameWords`).
//
//   node --no-warnings --import @swc-node/register/esm-register bench/ranked-search.ts \
//     postgres://postgres@127.0.0.1:5432/addons_bench_500000_s1 [words=200] [rounds=2]
//
// EXTRA=1 adds two-word searches, a type filter, a second page and a further sort (answers compared,
// not timed). The database must be migrated (the app's start does it).
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { databaseSchema } from '../src/modules.js';
import { PostgresSearchEngine } from '../src/search/postgres.engine.js';
import type { AddonSearchQuery } from '../src/search/search.port.js';

const [url, words = '200', rounds = '2'] = process.argv.slice(2);
if (!url) throw new Error('usage: bench/ranked-search.ts <postgres url> [words] [rounds]');
const where = `status = 4 and not disabled_by_user and current_version_id is not null`;
const client = new pg.Client(url);
await client.connect();
const picked = (
  await client.query<{ word: string }>(
    `select word from ts_stat($$select to_tsvector('simple', addons_translations_text(name)) from addons
      tablesample system (5) repeatable (11) where ${where}$$)
      where length(word) > 3 and word ~ '^[a-z]+$' order by md5(word) limit $1`,
    [Number(words)],
  )
).rows.map((r) => r.word);
await client.end();

const db = await openDatabase({ kind: 'postgres', url, poolMax: 8 }, { ...databaseSchema, migrate: false });
const engines = { before: new PostgresSearchEngine(db, { rankedIndex: false }), after: new PostgresSearchEngine(db) };
const page = (q: string, extra: Partial<AddonSearchQuery> = {}): AddonSearchQuery => ({
  filters: { q },
  sort: ['relevance'],
  offset: 0,
  limit: 25,
  ...extra,
});
const timed = picked.map((w) => page(w));
const checked: AddonSearchQuery[] = [];
if (process.env.EXTRA) {
  for (let i = 0; i + 2 < picked.length; i += 10) {
    checked.push(page(`${picked[i]} ${picked[i + 1]}`));
    checked.push(page(picked[i], { filters: { q: picked[i], types: [1] } }));
    checked.push(page(picked[i + 1], { offset: 25 }));
    checked.push(page(picked[i + 2], { sort: ['relevance', 'rating'], limit: 10 }));
  }
}

const times = { before: [] as number[], after: [] as number[] };
let different = 0;
let totals = 0;
for (let round = 0; round < Number(rounds); round++) {
  for (const query of [...timed, ...checked]) {
    const order = round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const);
    const answers: Record<string, { hits: unknown; total: number }> = {};
    for (const name of order) {
      const started = performance.now();
      const result = await engines[name].search(query);
      if (timed.includes(query)) times[name].push(performance.now() - started);
      answers[name] = { hits: result.hits, total: result.total };
    }
    if (round > 0) continue;
    if (JSON.stringify(answers.before.hits) !== JSON.stringify(answers.after.hits)) {
      different++;
      console.log('different hits:', JSON.stringify(query));
    }
    // Above the rank-all limit, totals are the planner's estimate after (exact counts before, when
    // the bounded ranking proved its order).
    if (answers.before.total !== answers.after.total) totals++;
  }
}
for (const name of ['before', 'after'] as const) {
  const sorted = [...times[name]].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1);
  const mean = (sorted.reduce((a, b) => a + b, 0) / sorted.length).toFixed(1);
  console.log(`${name}: ${sorted.length} searches, ms p50 ${at(0.5)} p95 ${at(0.95)} max ${at(1)} mean ${mean}`);
}
console.log(`${timed.length + checked.length} queries: ${different} with different hits, ${totals} with other totals`);
await db.close();
