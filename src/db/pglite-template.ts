import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { MigrationObject } from '@mikro-orm/core';

/**
 * A fresh embedded database starts from a snapshot of one that has just been created and migrated
 * (PGlite's `dumpDataDir`, loaded with `loadDataDir`), instead of running PostgreSQL's initdb and
 * every migration again: initdb alone takes seconds in WASM, and the tests open a fresh in-memory
 * database in every file. The snapshot is made by the first fresh start on the machine, from the
 * same migrations, and is named by a hash of them (their names and code) and of PGlite's version,
 * so a changed or added migration makes another; an existing database still runs the migrations it
 * lacks. Kept under node_modules/.cache (EMBEDDED_TEMPLATE_DIR overrides; `off` disables).
 *
 * An in-memory database (the tests: one or more in every file) loads a second, trimmed snapshot:
 * PGlite keeps the service's tables in `template1`, and its `postgres` and `template0` databases,
 * never used by an in-memory one, are dropped there (DROP DATABASE, so the catalogue agrees). That
 * halves what `loadDataDir` unpacks in WASM, and about a second of every in-memory start.
 */
export interface EmbeddedTemplate {
  /** The snapshot for these migrations, if one was made (for an in-memory database). */
  load(): Blob | null;
  /**
   * Writes the snapshot's files into `dataDir` (an empty PGlite data directory), which then opens
   * like an existing database: quicker than `loadDataDir`, which unpacks in WASM. False if none.
   */
  extractTo(dataDir: string): boolean;
  /**
   * Saves a snapshot of `pglite`, which must hold exactly these migrations, applied from nothing, and
   * the trimmed one `load` returns, made in a scratch instance `open` starts from a snapshot (with
   * the same extensions): `pglite` itself is left as it was.
   */
  save(pglite: PGlite, open: (snapshot: Blob) => PGlite): Promise<void>;
}

// The checkout's root, from src/db or dist/src/db alike: the folder holding node_modules.
const HERE = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROOT = existsSync(join(HERE, 'node_modules')) ? HERE : join(HERE, '..');

function cacheDirectory(): string | null {
  const configured = process.env.EMBEDDED_TEMPLATE_DIR;
  if (configured === 'off') return null;
  return configured || join(ROOT, 'node_modules', '.cache', 'addons-service');
}

function packageVersion(name: string): string {
  try {
    const manifest = join(ROOT, 'node_modules', ...name.split('/'), 'package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/**
 * The snapshot's name: what a different snapshot would come from (migrations, PGlite, extensions,
 * and pg-boss, whose schema the app installs at start: `Database.saveSnapshot`).
 */
export function templateKey(migrations: readonly MigrationObject[], extensions: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(`pglite ${packageVersion('@electric-sql/pglite')}\npg-boss ${packageVersion('pg-boss')}\n`);
  hash.update(`extensions ${extensions.join(',')}\n`);
  for (const m of migrations) hash.update(`${m.name}\n${String(m.class)}\n`);
  return hash.digest('hex').slice(0, 20);
}

export function embeddedTemplate(key: string): EmbeddedTemplate | null {
  const dir = cacheDirectory();
  if (!dir) return null;
  const file = join(dir, `pglite-${key}.tar`);
  const memoryFile = join(dir, `pglite-${key}.memory.tar`);
  return {
    load() {
      try {
        return new Blob([readFileSync(memoryFile)]);
      } catch {
        return null;
      }
    },
    extractTo(dataDir) {
      // Only into nothing (or an empty folder): never over what an interrupted start left.
      if (existsSync(dataDir) && readdirSync(dataDir).length) return false;
      let tar: Buffer;
      try {
        tar = readFileSync(file);
      } catch {
        return false;
      }
      // Unpacked beside it and renamed, so a start interrupted halfway leaves no half database.
      const partial = `${dataDir}.partial-${process.pid}`;
      rmSync(partial, { recursive: true, force: true });
      extractTar(tar, partial);
      rmSync(dataDir, { recursive: true, force: true });
      renameSync(partial, dataDir);
      return true;
    },
    async save(pglite, open) {
      // Best effort: a read-only checkout starts as before, only without the shortcut.
      const temporary = `${file}.${process.pid}.${Date.now()}`;
      try {
        // Written to the files first, so that opening the snapshot has next to no WAL to replay.
        await pglite.query('checkpoint');
        const dump = await pglite.dumpDataDir('none');
        const trimmed = await trimmedSnapshot(open(dump));
        mkdirSync(dir, { recursive: true });
        // Atomic: concurrent first starts (parallel test files) each write their own, one wins. The
        // trimmed one last: `load` finding it means both are complete.
        writeFileSync(temporary, Buffer.from(await dump.arrayBuffer()));
        renameSync(temporary, file);
        writeFileSync(temporary, trimmed);
        renameSync(temporary, memoryFile);
        // Older migrations' snapshots are not needed again (another would be made if they were).
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (/^pglite-[0-9a-f]+(\.memory)?\.tar$/.test(name) && path !== file && path !== memoryFile)
            rmSync(path, { force: true });
        }
      } catch {
        rmSync(temporary, { force: true });
      }
    },
  };
}

/** The snapshot for in-memory databases: in `scratch`, every database but the one holding the tables dropped. */
async function trimmedSnapshot(scratch: PGlite): Promise<Buffer> {
  try {
    await scratch.waitReady;
    const { rows } = await scratch.query<{ datname: string }>(
      'select datname from pg_database where datname <> current_database() order by datname',
    );
    for (const { datname } of rows) {
      const name = `"${datname.replaceAll('"', '""')}"`;
      // template0 is a template (and refuses connections): made an ordinary database first.
      await scratch.exec(`alter database ${name} is_template false`);
      // Alone: one query string of several statements is a transaction, which DROP DATABASE refuses.
      await scratch.exec(`drop database ${name}`);
    }
    await scratch.query('checkpoint');
    return Buffer.from(await (await scratch.dumpDataDir('none')).arrayBuffer());
  } finally {
    await scratch.close();
  }
}

const BLOCK = 512;

/** The ustar archive of `dumpDataDir` (directories and regular files, names from the data directory's root). */
function extractTar(tar: Buffer, into: string): void {
  const field = (header: Buffer, start: number, length: number) =>
    header.toString('utf8', start, start + length).replace(/\0.*$/s, '');
  for (let offset = 0; offset + BLOCK <= tar.length;) {
    const header = tar.subarray(offset, offset + BLOCK);
    const name = field(header, 0, 100);
    if (!name) break;
    const prefix = field(header, 345, 155);
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1) || '0';
    const relative = `${prefix ? `${prefix}/` : ''}${name}`.replace(/^\/+/, '');
    const path = join(into, relative);
    if (relative.split('/').includes('..')) throw new Error(`unexpected path in the embedded template: ${relative}`);
    if (type === '5') mkdirSync(path, { recursive: true });
    else if (type === '0') {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, tar.subarray(offset + BLOCK, offset + BLOCK + size));
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
}
