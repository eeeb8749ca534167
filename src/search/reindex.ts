import type { EntityManager } from '@mikro-orm/postgresql';
import { refreshAddons } from '../catalogue/catalogue.indexer.js';
import { ProgressBar, type ProgressStream } from '../catalogue/seed/progress.js';
import { rebuildPostings, syncPostings } from './postgres.postings.js';
import type { SearchService } from './search.service.js';

export interface ReindexResult {
  addons: number;
  engine: string;
  seconds: number;
}

/**
 * Rebuilds what search reads, in batches of add-on ids: recomputes each add-on's denormalised
 * search columns from its versions (rewriting only the rows whose values differ: an unchanged row
 * rewritten would recompute its stored search vector and every index entry for nothing), pushes
 * the documents to the engine (Meilisearch; nothing to push for PostgreSQL, whose table is the
 * index), brings the per-term postings (kept in step by triggers) to what the rows give (only the
 * difference written; `rebuildPostings: true` empties and refills the table instead), then
 * refreshes the planner statistics.
 */
export async function reindex(
  em: EntityManager,
  search: SearchService,
  options: { batchSize?: number; progress?: ProgressStream; rebuildPostings?: boolean } = {},
): Promise<ReindexResult> {
  const started = performance.now();
  const batchSize = options.batchSize ?? 2_000;
  const connection = em.getConnection();
  const [{ count }] = await connection.execute<{ count: string }[]>('select count(*)::text as count from addons');
  const total = Number(count);
  const bar = new ProgressBar(options.progress ?? process.stderr, 'reindex', total);
  let done = 0;
  let lastId = 0;
  for (;;) {
    const rows = await connection.execute<{ id: number }[]>('select id from addons where id > ? order by id limit ?', [
      lastId,
      batchSize,
    ]);
    if (!rows.length) break;
    const ids = rows.map((r) => r.id);
    await refreshAddons(em, ids, { onlyChanged: true });
    await search.indexAddons(ids);
    lastId = ids[ids.length - 1];
    done += ids.length;
    bar.update(done, done);
  }
  bar.finish();
  const execute = <T>(query: { text: string; params: readonly unknown[] }) =>
    connection.execute<T[]>(query.text, [...query.params]);
  if (options.rebuildPostings) await rebuildPostings(execute);
  else await syncPostings(execute);
  await connection.execute('analyze addons');
  return { addons: done, engine: search.engineName, seconds: Math.round((performance.now() - started) / 100) / 10 };
}
