/**
 * The look-alike names suite: what the `scan-version` job's look-alike step costs a new add-on as
 * the catalogue grows, as a ratio to the same step at the smallest size (BENCH_LOOKALIKE_SIZES,
 * default 1,000 and 500,000 public add-ons with DATABASE_URL, a scratch database on that server;
 * 1,000 and 20,000 on the embedded default). Add-ons are seeded with SQL (generate_series: two
 * locales of names each, from a hash of the id, written without their keys, as the migration leaves
 * existing rows); the first look-up computes their keys (the one-off backfill, timed and reported
 * apart), then BENCH_LOOKALIKE_RUNS look-ups (default 20) of names probing the index are timed
 * (medians), with the longest synchronous stretch of the event loop during them. Every size checks
 * that a planted look-alike is found and an unrelated name finds nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database, type DatabaseTarget } from '../src/db/database.js';
import { databaseSchema } from '../src/modules.js';
import { LookalikeNames } from '../src/scanners/lookalike-names.js';
import { createScratchDatabase, dropScratchDatabase, fmt } from './lib.js';

export interface LookalikeSettings {
  sizes: number[];
  runs: number;
  adminUrl: string | undefined;
}

export interface LookalikeSize {
  addons: number;
  seedMs: number;
  backfillMs: number;
  lookupMs: number;
  maxBlockMs: number;
}

export interface LookalikeReport extends LookalikeSettings {
  database: 'postgres' | 'embedded';
  results: LookalikeSize[];
  failures: string[];
}

export function lookalikeSettings(): LookalikeSettings {
  const adminUrl = process.env.DATABASE_URL || undefined;
  const sizes = (process.env.BENCH_LOOKALIKE_SIZES ?? (adminUrl ? '1000,500000' : '1000,20000')).split(',').map(Number);
  return { sizes, runs: Number(process.env.BENCH_LOOKALIKE_RUNS ?? 20), adminUrl };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const TRADEMARKS = ['Vendor', 'Browser'];
/** Names the timed look-ups probe (none alike a seeded one but the planted look-alike). */
const PROBES = ['Tab Organizer Deluxe', 'Password Keeper Pro', 'Dark Reader Night', 'Video Speed Control'];
const PLANTED = 'Lantern Bookmark Sorter';

/** `count` more public add-ons (ids after the existing ones), names from a hash of the row number. */
async function seed(db: Database, from: number, to: number): Promise<void> {
  const em = db.fork();
  const [base] = await em.execute<{ id: number }[]>('select id from versions order by id limit 1');
  const word = `(array['tab','dark','mode','video','speed','reader','cookie','shield','theme','color','note','mail'])`;
  const letters = (salt: string) => `translate(substr(md5(i::text || '${salt}'), 1, 9), '0123456789', 'ghjkmnpqrs')`;
  for (let start = from; start < to; start += 50_000) {
    const end = Math.min(to, start + 50_000);
    await em.execute(
      `insert into addons (slug, guid, type, status, name, summary, current_version_id)
        select 'bench-' || i, 'bench-' || i || '@lookalike.bench', 1, 4,
          jsonb_build_object('en-US', initcap(${word}[1 + i % 12]) || ' ' || ${letters('a')},
                             'de', ${letters('b')} || ' ' || ${word}[1 + (i / 12) % 12]),
          '{"en-US": "Bench"}'::jsonb, ?
        from generate_series(?::int, ?::int - 1) as i`,
      [base!.id, start, end],
    );
  }
}

async function baseAddon(db: Database): Promise<void> {
  const em = db.fork();
  const [addon] = await em.execute<{ id: number }[]>(
    `insert into addons (slug, type, status, name) values ('bench-base', 1, 4, '{"en-US": "${PLANTED.replace('B', 'B0')}"}') returning id`,
  );
  const [version] = await em.execute<{ id: number }[]>(
    `insert into versions (addon_id, version, channel) values (?, '1.0', 2) returning id`,
    [addon!.id],
  );
  await em.execute('update addons set current_version_id = ? where id = ?', [version!.id, addon!.id]);
}

export async function runLookalikeSuite(options: {
  settings: LookalikeSettings;
  log: (line: string) => void;
}): Promise<LookalikeReport> {
  const { sizes, runs, adminUrl } = options.settings;
  const scratch = `bench_lookalike_${process.pid}`;
  let dataDir: string | null = null;
  let target: DatabaseTarget;
  if (adminUrl) target = { kind: 'postgres', url: await createScratchDatabase(adminUrl, scratch), poolMax: 4 };
  else target = { kind: 'embedded', dataDir: (dataDir = mkdtempSync(join(tmpdir(), 'bench-lookalike-'))) };
  const failures: string[] = [];
  const results: LookalikeSize[] = [];
  let db: Database | null = null;
  try {
    db = await openDatabase(target, databaseSchema);
    const names = new LookalikeNames(TRADEMARKS);
    await baseAddon(db);
    let seeded = 1;
    for (const size of [...sizes].sort((a, b) => a - b)) {
      let started = performance.now();
      await seed(db, seeded, size);
      seeded = size;
      const seedMs = performance.now() - started;
      started = performance.now();
      const keyed = await names.catchUp(db.fork());
      const backfillMs = performance.now() - started;
      options.log(
        `lookalike: ${size} add-ons seeded in ${fmt(seedMs / 1000, 1)} s, ${keyed} keyed in ${fmt(backfillMs / 1000, 1)} s`,
      );
      const own = (name: string) => ({
        id: 0,
        name: { 'en-US': name, fr: name.toUpperCase() },
        defaultLocale: 'en-US',
      });
      const planted = await names.find(db.fork(), own(PLANTED));
      if (planted.length !== 1) failures.push(`${size}: the planted look-alike found ${JSON.stringify(planted)}`);
      const times: number[] = [];
      // The longest stretch the event loop did not turn (a 1 ms timer's lateness).
      // The embedded database answers without the loop turning: then a whole look-up is one stretch.
      let maxBlockMs = 0;
      let ticks = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        maxBlockMs = Math.max(maxBlockMs, now - last - 1);
        last = now;
        ticks++;
      }, 1);
      for (let run = 0; run < runs; run++) {
        const probe = PROBES[run % PROBES.length]!;
        const t0 = performance.now();
        const hits = await names.find(db.fork(), own(probe));
        times.push(performance.now() - t0);
        if (hits.length) failures.push(`${size}: ${probe} found ${JSON.stringify(hits.slice(0, 3))}`);
      }
      clearInterval(timer);
      if (ticks < runs) maxBlockMs = Math.max(maxBlockMs, ...times);
      results.push({ addons: size, seedMs, backfillMs, lookupMs: median(times), maxBlockMs });
    }
  } finally {
    await db?.close();
    if (adminUrl) await dropScratchDatabase(adminUrl, scratch);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  return { ...options.settings, database: adminUrl ? 'postgres' : 'embedded', results, failures };
}

export function printLookalikeReport(report: LookalikeReport): void {
  const [first] = report.results;
  console.log(`\nlook-alike names per new add-on (${report.database}; medians of ${report.runs} look-ups)`);
  for (const r of report.results) {
    console.log(
      `  ${String(r.addons).padStart(7)} add-ons: ${fmt(r.lookupMs)} ms = ${fmt(r.lookupMs / first!.lookupMs)}x at ${first!.addons}` +
        `; longest event-loop stretch ${fmt(r.maxBlockMs)} ms; one-off key backfill ${fmt(r.backfillMs / 1000, 1)} s`,
    );
  }
}
