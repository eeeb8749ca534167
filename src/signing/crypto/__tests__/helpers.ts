import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { fromBufferPromise, type Entry } from 'yauzl';

/** A temporary directory removed by `cleanup()`. */
export function tempDir(prefix: string): {
  path: string;
  file: (name: string, data?: Buffer | string) => string;
  cleanup: () => void;
} {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name, data) => {
      const target = join(path, name);
      if (data !== undefined) writeFileSync(target, data);
      return target;
    },
    cleanup: () => rmSync(path, { recursive: true, force: true }),
  };
}

export interface Unzipped {
  names: string[];
  files: Map<string, Buffer>;
  entries: Entry[];
}

export async function unzip(zip: Buffer): Promise<Unzipped> {
  const archive = await fromBufferPromise(zip, { lazyEntries: true, strictFileNames: true });
  const unzipped: Unzipped = { names: [], files: new Map(), entries: [] };
  for await (const entry of archive.eachEntry()) {
    unzipped.names.push(entry.fileName);
    unzipped.entries.push(entry);
    unzipped.files.set(entry.fileName, await buffer(await archive.openReadStreamPromise(entry)));
  }
  return unzipped;
}

export function openssl(args: string[], input?: Buffer): { ok: boolean; stdout: string; stderr: string } {
  const result = spawnSync('openssl', args, { input, encoding: 'buffer' });
  return { ok: result.status === 0, stdout: result.stdout.toString('utf8'), stderr: result.stderr.toString('utf8') };
}

/** JAR manifest parsing the way Firefox reads it: continuation lines start with one space. */
export function parseManifestSections(text: string): Map<string, string>[] {
  const unfolded = text.replace(/\n /g, '');
  return unfolded
    .split('\n\n')
    .filter((section) => section.length > 0)
    .map((section) => new Map(section.split('\n').map((line) => splitHeader(line))));
}

function splitHeader(line: string): [string, string] {
  const colon = line.indexOf(': ');
  if (colon < 0) throw new Error(`Not a header line: ${JSON.stringify(line)}`);
  return [line.slice(0, colon), line.slice(colon + 2)];
}

/** A CA made by OpenSSL rather than by this module (PrintableString/UTF8 names, its own SKI). */
export function makeOpensslCa(dir: ReturnType<typeof tempDir>, name: string): { certPem: string; keyPem: string } {
  const key = dir.file(`${name}.key`);
  const cert = dir.file(`${name}.pem`);
  const made = openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '30',
    '-subj',
    `/C=DE/O=Example Org/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  if (!made.ok) throw new Error(made.stderr);
  return { certPem: readFileSync(cert, 'utf8'), keyPem: readFileSync(key, 'utf8') };
}
