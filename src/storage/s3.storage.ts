import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { assertRange, assertSafeKey, sliceStream, type Storage } from './storage.port.js';

export interface S3StorageOptions {
  /** S3-compatible endpoint (MinIO, Ceph, R2…); omit for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Keys of this storage live under `<prefix>/` in the bucket (`media`, `files`). */
  prefix: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (`endpoint/bucket/key`), as MinIO and most self-hosted stores need. */
  forcePathStyle?: boolean;
  /** Base URL the objects are publicly readable at; without it `url()` points at the service (`/user-media/`). */
  publicUrl?: string;
}

type Sdk = typeof S3Sdk;

/** The AWS SDK is loaded at the first use of an S3 storage (not at every start: a large package). */
let sdkLoading: Promise<Sdk> | null = null;
const loadSdk = () => (sdkLoading ??= import('@aws-sdk/client-s3'));

/**
 * Storage in an S3-compatible object store, so several web and worker processes on different
 * machines share uploads, signed files and media. Tools that read files (the validator, the zip
 * reader) get a temporary local copy that `release` removes.
 */
export class S3Storage implements Storage {
  #ready: Promise<{ sdk: Sdk; client: S3Client }> | null = null;

  constructor(private readonly options: S3StorageOptions) {}

  /** The SDK and this storage's client, made at the first request. */
  private connect(): Promise<{ sdk: Sdk; client: S3Client }> {
    this.#ready ??= loadSdk().then((sdk) => ({ sdk, client: this.createClient(sdk) }));
    return this.#ready;
  }

  private createClient({ S3Client }: Sdk): S3Client {
    const { options } = this;
    return new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      // Checksums only where S3 requires them: the SDK's default (a CRC trailer in aws-chunked
      // bodies) is not understood by every S3-compatible store, which then stores the framing too.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
    });
  }

  private key(key: string): string {
    assertSafeKey(key);
    return `${this.options.prefix}/${key}`;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const objectKey = this.key(key);
    const { sdk, client } = await this.connect();
    await client.send(new sdk.PutObjectCommand({ Bucket: this.options.bucket, Key: objectKey, Body: data }));
  }

  /** Uploads a local file under `key`, then removes the local file (as LocalStorage moves it). */
  async putFile(key: string, path: string): Promise<void> {
    const objectKey = this.key(key);
    const { size } = await stat(path);
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.options.bucket,
        Key: objectKey,
        Body: createReadStream(path),
        ContentLength: size,
      }),
    );
    await rm(path, { force: true });
  }

  async get(key: string): Promise<Buffer | null> {
    const object = await this.object(key);
    if (!object) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of object.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async open(key: string): Promise<{ stream: Readable; size: number } | null> {
    return this.object(key);
  }

  async size(key: string): Promise<number | null> {
    const objectKey = this.key(key);
    const { sdk, client } = await this.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: objectKey }));
      return Number(head.ContentLength ?? 0);
    } catch (error) {
      if (isMissing(sdk, error)) return null;
      throw error;
    }
  }

  async readRange(key: string, start: number, length: number): Promise<Buffer | null> {
    const stream = await this.openRange(key, start, length);
    if (!stream) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async openRange(key: string, start: number, length: number): Promise<Readable | null> {
    assertRange(start, length);
    let object;
    try {
      object = await this.object(key, length ? `bytes=${start}-${start + length - 1}` : undefined);
    } catch (error) {
      // A range that starts past the end: the object exists and holds none of those bytes.
      const { sdk } = await this.connect();
      if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 416) return Readable.from([]);
      throw error;
    }
    if (!object) return null;
    if (!length) {
      object.stream.destroy();
      return Readable.from([]);
    }
    // A store that ignores Range sends the whole object: skip to the asked bytes.
    return object.partial ? sliceStream(object.stream, 0, length) : sliceStream(object.stream, start, length);
  }

  async localFile(key: string): Promise<{ path: string; release(): Promise<void> } | null> {
    const object = await this.object(key);
    if (!object) return null;
    const dir = await mkdtemp(join(tmpdir(), 'addons-s3-'));
    const path = join(dir, key.split('/').pop() || 'file');
    const release = () => rm(dir, { recursive: true, force: true });
    try {
      await pipeline(object.stream, createWriteStream(path));
    } catch (error) {
      await release();
      throw error;
    }
    return { path, release };
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.key(key);
    const { sdk, client } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.options.bucket, Key: objectKey }));
  }

  url(baseUrl: string, key: string): string {
    assertSafeKey(key);
    const base = this.options.publicUrl?.replace(/\/+$/, '');
    return base ? `${base}/${this.key(key)}` : `${baseUrl}/user-media/${key}`;
  }

  private async object(
    key: string,
    range?: string,
  ): Promise<{ stream: Readable; size: number; partial: boolean } | null> {
    const objectKey = this.key(key);
    const { sdk, client } = await this.connect();
    try {
      const response = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: objectKey, Range: range }),
      );
      const body = response.Body as Readable | undefined;
      if (!body) return null;
      return {
        stream: body instanceof Readable ? body : Readable.from(body),
        size: Number(response.ContentLength ?? 0),
        partial: response.ContentRange !== undefined,
      };
    } catch (error) {
      if (isMissing(sdk, error)) return null;
      throw error;
    }
  }
}

/** No such key (a HEAD's 404 has no body, so no NoSuchKey code). */
function isMissing({ NoSuchKey, S3ServiceException }: Sdk, error: unknown): boolean {
  return error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}
