import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface DirectoryLock {
  release(): void;
}

/**
 * PGlite is one process's database: two processes opening the same data directory would corrupt
 * it. The first process to open it writes its pid into `<dir>/.lock`; later ones are refused with a
 * message saying who holds it. A lock left by a dead process is taken over.
 */
export function acquireDirectoryLock(dir: string): DirectoryLock {
  const path = join(dir, '.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
          } catch {
            /* already gone */
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${dir} is in use by another process (pid ${holder}). ` +
            'Stop that process first, or set DATABASE_URL to use a PostgreSQL server that several processes can share.',
          { cause: error },
        );
      }
      unlinkSync(path);
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
