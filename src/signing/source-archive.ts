import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Whether a received source archive really is the kind of archive its extension says (the
 * original's check that it opens): zip central directories, gzip'd tar headers, bzip2 markers.
 */

/** Whether the file is the kind of archive its extension says. */
export async function isArchive(path: string, extension: '.zip' | '.tar.gz' | '.tgz' | '.tar.bz2'): Promise<boolean> {
  if (extension === '.zip') return isZip(path);
  if (extension === '.tar.bz2') return isBzip2(path);
  return isTarGz(path);
}

/** A zip whose central directory lists every entry consistently (yauzl reads only the directory). */
function isZip(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true, strictFileNames: false }, (error, zip) => {
      if (error || !zip) return resolve(false);
      let done = false;
      const finish = (ok: boolean) => {
        if (done) return;
        done = true;
        zip.close();
        resolve(ok);
      };
      zip.on('error', () => finish(false));
      zip.on('entry', () => zip.readEntry());
      zip.on('end', () => finish(true));
      zip.readEntry();
    });
  });
}

/** gzip magic, and the first 512 decompressed bytes are a tar header with a valid checksum. */
async function isTarGz(path: string): Promise<boolean> {
  const head = await readHead(path, 2);
  if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return false;
  const block = await firstDecompressed(path, 512);
  return block !== null && isTarHeader(block);
}

/** bzip2 magic (`BZh` and a block size digit), then a block or end-of-stream marker. */
async function isBzip2(path: string): Promise<boolean> {
  const head = await readHead(path, 10);
  if (head.length < 10 || head.toString('latin1', 0, 3) !== 'BZh') return false;
  if (head[3] < 0x31 || head[3] > 0x39) return false;
  const marker = head.subarray(4, 10).toString('hex');
  return marker === '314159265359' || marker === '177245385090';
}

async function readHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The first `length` decompressed bytes (reading stops there: bounded), or null when broken or shorter. */
function firstDecompressed(path: string, length: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const source = createReadStream(path);
    const gunzip = createGunzip();
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: Buffer | null) => {
      if (done) return;
      done = true;
      source.destroy();
      gunzip.destroy();
      resolve(value);
    };
    source.on('error', () => finish(null));
    gunzip.on('error', () => finish(null));
    gunzip.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= length) finish(Buffer.concat(chunks).subarray(0, length));
    });
    gunzip.on('end', () => finish(null));
    source.pipe(gunzip);
  });
}

/** A ustar/GNU/v7 tar header: its checksum field (octal) is the sum of its bytes, the field counted as spaces. */
function isTarHeader(block: Buffer): boolean {
  const field = block
    .toString('latin1', 148, 156)
    .replace(/[\0 ]+$/g, '')
    .trim();
  if (!/^[0-7]{1,7}$/.test(field)) return false;
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum === parseInt(field, 8) && block[0] !== 0;
}
