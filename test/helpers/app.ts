import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import request from 'supertest';
import type { RouteDefinition } from '../../rest-compat/route.js';
import { createApp, type App } from '../../src/app.js';
import { usersCreate, type CreatedUserOutput, type UsersCreateArgs } from '../../src/cli/commands.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/core/logger.js';
import { createTestDatabase } from './database.js';

export const TEST_SECRET_KEY = 'test-secret-key-0123456789abcdef0123456789abcdef';

export interface TestApp {
  app: App;
  http: ReturnType<typeof request>;
  em(): EntityManager;
  /** The same code path as `npm run cli -- users:create`. */
  createUser(args?: Partial<UsersCreateArgs>): Promise<CreatedUserOutput>;
  close(): Promise<void>;
}

let counter = 0;

export async function startTestApp(
  options: { env?: Record<string, string>; extraRoutes?: RouteDefinition[]; onQuery?: (sql: string) => void } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-test-'));
  let config;
  try {
    config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      SECRET_KEY: TEST_SECRET_KEY,
      DATA_DIR: dataDir,
      ...options.env,
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const database = await createTestDatabase();
  const logger = createLogger(config.LOG_LEVEL, 'stderr');
  let app: App;
  try {
    app = await createApp(config, logger, {
      database: database.target,
      extraRoutes: options.extraRoutes,
      onQuery: options.onQuery,
    });
  } catch (error) {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return released(app, async () => {
    await app.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/**
 * Node never releases the ES modules Jest evaluates for a test file (their records stay in a cleanup
 * queue), so a file's top-level `let t: TestApp` kept the whole closed app, its database and caches
 * reachable for the rest of the worker's life: about 30 MB a file. Once closed, a test app lets go
 * of everything (`close` included: its closure held the app); using it afterwards is a clear error.
 */
function released(app: App, shutDown: () => Promise<void>): TestApp {
  let close: (() => Promise<void>) | null = shutDown;
  const testApp: TestApp = {
    app,
    http: request(app.express),
    em: () => testApp.app.db.fork(),
    createUser: (args = {}) =>
      usersCreate(testApp.app.services, testApp.app.db.fork(), {
        email: `user${++counter}-${process.pid}@example.com`,
        ...args,
      }),
    async close() {
      const closing = close;
      close = null;
      for (const key of ['app', 'http'] as const) {
        Object.defineProperty(testApp, key, {
          get() {
            throw new Error(`the test app was used after close() (${key})`);
          },
        });
      }
      await closing?.();
    },
  };
  return testApp;
}

/**
 * A second service process (in this one) on a test app's PostgreSQL database, as a scale-out
 * deployment runs one: its own caches, the same data. Close it before the test app.
 */
export async function startSecondProcess(t: TestApp): Promise<App> {
  const database = String(t.app.db.location).split('/').pop();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SECRET_KEY: TEST_SECRET_KEY,
    DATA_DIR: t.app.services.config.dataDir,
    SITE_URL: 'http://addons.test',
    JOB_WORKERS: 'false',
    DATABASE_URL: `${process.env.DATABASE_URL!.replace(/\/[^/]*$/, '')}/${database}`,
  });
  return createApp(config, createLogger('silent', 'stderr'));
}
