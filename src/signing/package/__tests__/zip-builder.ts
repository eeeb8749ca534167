import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import yazl from 'yazl';

/** Archives for tests: well-formed ones through yazl, hostile ones byte by byte. */

export async function zipFiles(files: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) zip.addBuffer(Buffer.from(content), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

export interface RawEntry {
  name: string | Buffer;
  data?: string | Buffer;
  /** 0 stored, 8 deflated (default). */
  method?: number;
  /** Member bytes as written, instead of compressing `data`. */
  compressed?: Buffer;
  /** Declared uncompressed size (default: the data's length). */
  size?: number;
  crc?: number;
  /** General purpose flags (default: UTF-8 names). */
  flags?: number;
  /** Unix mode (type and permissions) stored in the external attributes. */
  mode?: number;
  /** Name in the local header when it should differ from the central directory's. */
  localName?: string;
  /** An Info-ZIP Unicode Path extra field: the name unzip tools show instead of `name`. */
  unicodePath?: string;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const UTF8_NAMES = 0x800;
const MADE_BY_UNIX = (3 << 8) | 20;

interface Prepared {
  name: Buffer;
  localName: Buffer;
  body: Buffer;
  method: number;
  size: number;
  crc: number;
  flags: number;
  externalAttributes: number;
  extra: Buffer;
}

const UNICODE_PATH_FIELD = 0x7075;

function unicodePathField(name: Buffer, path: string | undefined): Buffer {
  if (path === undefined) return Buffer.alloc(0);
  const data = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), Buffer.from(path)]);
  data.writeUInt32LE(crc32(name), 1);
  const header = Buffer.alloc(4);
  header.writeUInt16LE(UNICODE_PATH_FIELD, 0);
  header.writeUInt16LE(data.length, 2);
  return Buffer.concat([header, data]);
}

function prepare(entry: RawEntry): Prepared {
  const data = Buffer.from(entry.data ?? '');
  const method = entry.method ?? 8;
  const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name);
  return {
    name,
    localName: entry.localName === undefined ? name : Buffer.from(entry.localName),
    body: entry.compressed ?? (method === 8 ? deflateRawSync(data) : data),
    method,
    size: entry.size ?? data.length,
    crc: entry.crc ?? crc32(data),
    flags: entry.flags ?? UTF8_NAMES,
    externalAttributes: ((entry.mode ?? 0) << 16) >>> 0,
    extra: unicodePathField(name, entry.unicodePath),
  };
}

function localHeader(entry: Prepared): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(entry.flags, 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt32LE(entry.crc, 14);
  header.writeUInt32LE(entry.body.length, 18);
  header.writeUInt32LE(entry.size, 22);
  header.writeUInt16LE(entry.localName.length, 26);
  return Buffer.concat([header, entry.localName]);
}

function centralHeader(entry: Prepared, offset: number): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  header.writeUInt16LE(MADE_BY_UNIX, 4);
  header.writeUInt16LE(20, 6);
  header.writeUInt16LE(entry.flags, 8);
  header.writeUInt16LE(entry.method, 10);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.body.length, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt16LE(entry.extra.length, 30);
  header.writeUInt32LE(entry.externalAttributes, 38);
  header.writeUInt32LE(offset, 42);
  return Buffer.concat([header, entry.name, entry.extra]);
}

function endOfCentralDirectory(count: number, size: number, offset: number): Buffer {
  const record = Buffer.alloc(22);
  record.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  record.writeUInt16LE(count, 8);
  record.writeUInt16LE(count, 10);
  record.writeUInt32LE(size, 12);
  record.writeUInt32LE(offset, 16);
  return record;
}

export function buildZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries.map(prepare)) {
    centrals.push(centralHeader(entry, offset));
    const local = Buffer.concat([localHeader(entry), entry.body]);
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  return Buffer.concat([...locals, directory, endOfCentralDirectory(entries.length, directory.length, offset)]);
}

const MiB = 1024 * 1024;

/**
 * `mebibytes` of zeros as one deflate stream of about 1 KB per MiB, built without holding the
 * zeros: a sync-flushed block only refers to itself, so copies of it chain into a valid stream.
 */
export function deflatedZeros(mebibytes: number): { compressed: Buffer; crc: number } {
  const zeros = Buffer.alloc(MiB);
  const block = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const finalBlock = deflateRawSync(Buffer.alloc(0));
  let crc = 0;
  for (let i = 0; i < mebibytes; i++) crc = crc32(zeros, crc);
  return { compressed: Buffer.concat([...Array<Buffer>(mebibytes).fill(block), finalBlock]), crc };
}

export function writeFixture(dir: string, name: string, content: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}
