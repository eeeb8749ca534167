import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../../src/db/database.js';
import { templateKey } from '../../src/db/pglite-template.js';
import { createLogger } from '../../src/core/logger.js';
import { createJobQueue } from '../../src/jobs/pg-boss.queue.js';
import type { ServiceJobs } from '../../src/jobs/service-jobs.js';
import { databaseSchema, migrations, queues } from '../../src/modules.js';

export interface TestDatabase {
  target: DatabaseTarget;
  drop(): Promise<void>;
}

async function withAdmin<T>(url: string, run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.href;
}

const exists = async (admin: pg.Client, name: string) =>
  (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;

/**
 * A database holding every migration and the job queue, copied by the tests' `create database … template`: a copy
 * takes a fraction of a second where the migrations take seconds, and every test file starts at
 * least one app. Named by a hash of the migrations (their names and code), so a changed or added
 * migration makes a new one. It is built under a temporary name, then renamed: concurrent test
 * runs each build their own, one rename wins, and nobody is ever connected to the final one (a
 * copy needs its source idle).
 */
async function migratedTemplate(url: string): Promise<string> {
  const name = `addons_template_${templateKey(migrations, ['postgres'])}`;
  if (await withAdmin(url, (admin) => exists(admin, name))) return name;
  const building = `addons_template_build_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(url, (admin) => admin.query(`create database "${building}"`));
  try {
    const db = await openDatabase({ kind: 'postgres', url: databaseUrl(url, building), poolMax: 1 }, databaseSchema);
    try {
      // What the app installs at start too (pg-boss's schema and the queues), as the embedded snapshot holds it.
      const jobs = createJobQueue<ServiceJobs>(db, { queues, logger: createLogger('silent', 'stderr') });
      await jobs.start();
      await jobs.stop();
    } finally {
      await db.close();
    }
    await withAdmin(url, async (admin) => {
      if (!(await exists(admin, name))) await admin.query(`alter database "${building}" rename to "${name}"`);
    });
  } catch (error) {
    // A concurrent run's rename won: theirs is the same.
    if (!(error instanceof Error && /already exists/.test(error.message))) throw error;
  } finally {
    await withAdmin(url, (admin) => admin.query(`drop database if exists "${building}" with (force)`));
  }
  return name;
}

let template: Promise<string> | undefined;

/**
 * With DATABASE_URL: a fresh database on that server, copied from the migrated template, dropped
 * afterwards (tests run against the real PostgreSQL). Without: an in-memory embedded PGlite, the
 * service's zero-setup default (started from its own migrated snapshot: src/db/pglite-template.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) return { target: { kind: 'embedded', dataDir: null }, drop: async () => {} };
  template ??= migratedTemplate(url);
  const source = await template;
  const name = `addons_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(url, (admin) => admin.query(`create database "${name}" template "${source}"`));
  return {
    target: { kind: 'postgres', url: databaseUrl(url, name), poolMax: 5 },
    drop: async () => {
      await withAdmin(url, (admin) => admin.query(`drop database if exists "${name}" with (force)`));
    },
  };
}
