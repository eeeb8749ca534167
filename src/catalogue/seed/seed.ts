import type { EntityManager } from '@mikro-orm/postgresql';
import { errors } from '../../core/errors.js';
import {
  analyze,
  countAddons,
  deferIndexes,
  knexQuery,
  loadReference,
  loadTaken,
  moveSequences,
  nextIds,
} from './database.js';
import { CatalogueGenerator } from './generator.js';
import { AddonBatch, type UserRow } from './model.js';
import { ProgressBar, duration, type ProgressStream } from './progress.js';
import { FingerprintSet, SlugAllocator } from './unique.js';
import { generateUser, usersFor } from './users.js';
import { Vocabulary } from './vocabulary.js';
import { writeBatch, writeUsers } from './writer.js';

export interface SeedOptions {
  addons: number;
  /** Same addons and seed into empty tables: the same rows, ids included. Default 1. */
  seed?: number;
  /** Add to a catalogue that already has add-ons (ids and slugs continue). */
  append?: boolean;
  /** Add-ons per statement (with all their rows). */
  batchSize?: number;
  /** Progress on this stream (the CLI passes stderr); none when absent. */
  progress?: ProgressStream | null;
}

export interface SeedResult {
  addons: number;
  versions: number;
  files: number;
  users: number;
  previews: number;
  compat: number;
  authors: number;
  featured: number;
  seed: number;
  /** Id of the first add-on written. */
  firstAddonId: number;
  seconds: number;
}

export const DEFAULT_BATCH_SIZE = 2000;
const USER_BATCH_SIZE = 10_000;
const MAX_ADDONS = 10_000_000;

/**
 * Fills the catalogue with a deterministic synthetic data set: users first, then add-ons in
 * batches, each batch one statement (see writer.ts), the next batch generated while the database
 * writes the previous one; memory stays bounded by the batch size. All in one transaction: a
 * failed or interrupted seed leaves nothing behind. Into an empty catalogue, the tables' secondary
 * indexes are dropped first and rebuilt at the end (see deferIndexes), which also keeps the
 * catalogue tables locked until the seed commits.
 */
export async function seedCatalogue(em: EntityManager, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const total = options.addons;
  const seed = options.seed ?? 1;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isSafeInteger(total) || total < 1 || total > MAX_ADDONS) {
    throw errors.badParameter(`--addons must be an integer from 1 to ${MAX_ADDONS}`);
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw errors.badParameter('--seed must be an integer from 0 to 4294967295');
  }
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw errors.badParameter('--batch-size must be positive');

  const result = await em.getKnex().transaction(async (trx) => {
    const query = knexQuery(trx);
    const existing = await countAddons(query);
    if (existing > 0 && !options.append) {
      throw errors.conflict(`The catalogue already has ${existing} add-ons; give --append to add more.`);
    }
    const restoreIndexes = existing === 0 ? await deferIndexes(query) : null;
    const reference = await loadReference(query);
    const ids = await nextIds(query);
    const slugs = new SlugAllocator();
    const guids = new FingerprintSet();
    if (existing > 0) await loadTaken(query, slugs.taken, guids);
    const vocabulary = new Vocabulary();
    const stream = options.progress ?? null;

    const users = { first: ids.users, count: usersFor(total) };
    let bar = stream ? new ProgressBar(stream, 'users', users.count) : null;
    for (let start = 0; start < users.count; start += USER_BATCH_SIZE) {
      const end = Math.min(users.count, start + USER_BATCH_SIZE);
      const rows: UserRow[] = [];
      for (let i = start; i < end; i++) rows.push(generateUser(seed, users.first + i, vocabulary));
      await writeUsers(query, rows);
      bar?.update(end, end);
    }
    bar?.finish();
    ids.users += users.count;

    const firstAddonId = ids.addons;
    const generator = new CatalogueGenerator({ seed, total, users, reference, ids, slugs, guids, vocabulary });
    const counts = { versions: 0, files: 0, previews: 0, compat: 0, authors: 0, featured: 0 };
    bar = stream ? new ProgressBar(stream, 'add-ons', total) : null;
    let done = 0;
    let rows = 0;
    let writing: Promise<void> = Promise.resolve();
    try {
      for (let start = 0; start < total; start += batchSize) {
        const batch = await generateBatch(generator, start, Math.min(total, start + batchSize));
        await writing;
        for (const key of Object.keys(counts) as (keyof typeof counts)[]) counts[key] += batch[key].length;
        writing = writeBatch(query, batch).then(() => {
          done += batch.addons.length;
          rows += batch.rows;
          bar?.update(done, rows);
        });
        writing.catch(() => {}); // awaited below; not an unhandled rejection meanwhile
      }
      await writing;
    } catch (error) {
      await writing.catch(() => {});
      throw error;
    }
    bar?.finish();

    if (restoreIndexes) {
      const indexing = performance.now();
      await restoreIndexes();
      stream?.write(`indexes rebuilt in ${duration((performance.now() - indexing) / 1000)}\n`);
    }
    await moveSequences(query);
    await analyze(query);
    return { users: users.count, firstAddonId, ...counts };
  });
  // After the commit (VACUUM cannot run in a transaction): the visibility map lets search walk
  // its covering indexes, and read a word's postings, without reading the tables (and the first
  // searches set no hint bits on millions of freshly written postings).
  await em.getKnex().raw('vacuum (analyze) addons, addon_search_postings');
  return {
    addons: total,
    versions: result.versions,
    files: result.files,
    users: result.users,
    previews: result.previews,
    compat: result.compat,
    authors: result.authors,
    featured: result.featured,
    seed,
    firstAddonId: result.firstAddonId,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** Generates add-ons [start, end), yielding now and then so that the previous batch's I/O proceeds. */
async function generateBatch(generator: CatalogueGenerator, start: number, end: number): Promise<AddonBatch> {
  const batch = new AddonBatch();
  for (let i = start; i < end; i++) {
    generator.addAddon(batch, i);
    if ((i - start) % 200 === 199) await new Promise((resolve) => setImmediate(resolve));
  }
  return batch;
}
