import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  /** Settings for `loadConfig` (STORAGE=s3 against this server). */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** An S3-compatible server (s3rver, in-process on loopback) with one bucket; its data in a temp folder. */
export async function startTestS3(bucket = 'addons-test'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'addons-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
