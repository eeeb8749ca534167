import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { dirname, join } from 'node:path';
import { assertRange, assertSafeKey, type Storage } from './storage.port.js';

/** Files under a local directory, served by the app at `/user-media/`. Writes are atomic (temp + rename). */
export class LocalStorage implements Storage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    assertSafeKey(key);
    return join(this.root, key);
  }

  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
    await writeFile(temp, data);
    await rename(temp, path);
  }

  async putFile(key: string, source: string): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    try {
      await rename(source, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await copyFile(source, temp);
      await rename(temp, path);
      await rm(source, { force: true });
    }
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    const path = this.path(key);
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return info ? { stream: createReadStream(path), size: info.size } : null;
  }

  async size(key: string): Promise<number | null> {
    const info = await stat(this.path(key)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return info?.isFile() ? info.size : null;
  }

  async localFile(key: string): Promise<{ path: string; release(): Promise<void> } | null> {
    const path = this.path(key);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    return exists ? { path, release: async () => {} } : null;
  }

  async readRange(key: string, start: number, length: number): Promise<Buffer | null> {
    assertRange(start, length);
    let handle;
    try {
      handle = await open(this.path(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const buffer = Buffer.alloc(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await handle.read(buffer, read, length - read, start + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return buffer.subarray(0, read);
    } finally {
      await handle.close();
    }
  }

  async openRange(key: string, start: number, length: number): Promise<Readable | null> {
    assertRange(start, length);
    const path = this.path(key);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (length === 0) {
      await handle.close();
      return Readable.from([]);
    }
    // The stream owns the descriptor opened above (closed when it ends or is destroyed).
    return handle.createReadStream({ start, end: start + length - 1 });
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  url(baseUrl: string, key: string): string {
    assertSafeKey(key);
    return `${baseUrl}/user-media/${key}`;
  }
}
