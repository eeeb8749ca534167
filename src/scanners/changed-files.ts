import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { MAX_FINDINGS, scanSecrets, type SecretFinding } from './secrets.js';

/**
 * The scanners that need no rules (secrets) run only on what changed since the add-on's previous
 * version: a member with the same name, size and CRC-32 as one of the previous package's has the
 * same bytes for this purpose, and keeps the previous version's findings. Only the previous
 * package's central directory is read (no member is inflated).
 */
export interface PreviousPackage {
  /** Name -> `${size}:${crc32}` of every file of the previous version's package. */
  readonly members: ReadonlyMap<string, string>;
  /** The previous version's secret findings. */
  readonly findings: readonly SecretFinding[];
}

/** Members of a package this process signed or stored; more entries than this and nothing is reused. */
const MAX_PREVIOUS_ENTRIES = 10_000;

/** Name -> `${size}:${crc32}` from the central directory of a stored package; null when unreadable. */
export function centralDirectory(path: string): Promise<Map<string, string> | null> {
  return new Promise((resolve) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, decodeStrings: true }, (error, zip) => {
      if (error || !zip || zip.entryCount > MAX_PREVIOUS_ENTRIES) {
        zip?.close();
        return resolve(null);
      }
      const members = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) members.set(entry.fileName, `${entry.uncompressedSize}:${entry.crc32}`);
        zip.readEntry();
      });
      zip.on('end', () => resolve(members));
      zip.on('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

/**
 * `scanSecrets` over the files, in archive order, scanning only the files that differ from the
 * previous package (all of them without one): unchanged files keep their previous findings.
 */
export function scanChangedSecrets(
  files: readonly { name: string; data: Buffer }[],
  previous: PreviousPackage | null,
): { findings: SecretFinding[]; scanned: number } {
  const findings: SecretFinding[] = [];
  let scanned = 0;
  for (const file of files) {
    const before = previous?.members.get(file.name);
    const same = before !== undefined && before === `${file.data.length}:${crc32(file.data)}`;
    if (same) {
      findings.push(...previous!.findings.filter((f) => f.file === file.name));
    } else {
      scanned += 1;
      findings.push(...scanSecrets([file]));
    }
    if (findings.length >= MAX_FINDINGS) return { findings: findings.slice(0, MAX_FINDINGS), scanned };
  }
  return { findings, scanned };
}
