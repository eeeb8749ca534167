import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import cors from 'cors';
import { ALL_SCHEMES } from './access/credentials.js';
import { sessionCookieCredentials } from './auth/session-cookie.js';
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import type { GraphQLSchema } from 'graphql';
import { createRestHandler } from '../rest-compat/engine.js';
import type { RouteDefinition } from '../rest-compat/route.js';
import { routes as defaultRoutes } from '../rest-compat/routes/index.js';
import type { Config } from './config.js';
import { baseUrlOf, clientErrorHandler, sendJson } from './core/http.js';
import type { Logger } from './core/logger.js';
import { Keyring } from './core/secrets.js';
import { openDatabase, type Database, type DatabaseTarget } from './db/database.js';
import { buildAppSchema, composeModules, databaseSchema, queues, type Composition, type Services } from './modules.js';
import { createPlatform } from './platform.js';
import { playground } from './graphql/playground.js';
import { createGraphqlEndpoint } from './graphql/server.js';
import { refuseDeepJson } from './core/input-guards.js';
import { mediaFromStorage } from './storage/media.http.js';
import { ServiceMetrics } from './ops/metrics.js';
import { DatabaseGate, sendUnavailable } from './ops/outage.js';
import { metricsEndpoint, Readiness } from './ops/probes.js';
import { isDatabaseUnavailable } from './db/unavailable.js';

export interface App {
  readonly express: Express;
  /** An HTTP server for the app, listening (with the parser-refusal answers of clientErrorHandler). */
  listen(port: number, host?: string): Promise<Server>;
  readonly services: Services;
  readonly schema: GraphQLSchema;
  readonly db: Database;
  /** Operability: readiness (drained on shutdown) and the Prometheus metrics (null with METRICS=off). */
  readonly ops: { readonly readiness: Readiness; readonly metrics: ServiceMetrics | null };
  close(): Promise<void>;
}

export interface CreateAppOptions {
  /** Overrides the database chosen by the configuration (tests use an in-memory one). */
  database?: DatabaseTarget;
  /** Extra REST routes (tests mount probes of the engine). */
  extraRoutes?: readonly RouteDefinition[];
  /** Called with every SQL statement (tests count queries). */
  onQuery?: (sql: string) => void;
}

/** The database the configuration asks for: DATABASE_URL, else embedded PGlite under DATA_DIR. */
export function databaseTarget(config: Config): DatabaseTarget {
  return config.DATABASE_URL
    ? { kind: 'postgres', url: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX }
    : { kind: 'embedded', dataDir: `${config.dataDir}` };
}

/** Opens the database (applying migrations), builds the services, the schema and the HTTP app. */
export async function createApp(config: Config, logger: Logger, options: CreateAppOptions = {}): Promise<App> {
  const { keyring, generated } = Keyring.load(config.SECRET_KEY, config.dataDir);
  if (generated)
    logger.warn({ dataDir: config.dataDir }, 'SECRET_KEY is not set: generated one in DATA_DIR/secret-key');
  const opening = openDatabase(options.database ?? databaseTarget(config), {
    ...databaseSchema,
    logger,
    onQuery: options.onQuery,
    snapshotAfterStart: true,
  });
  // The schema needs no database: built while it opens (its resolvers meet their services on first use).
  let composed: Composition | undefined;
  const building = buildAppSchema({ servicesOf: (resolver) => composed?.servicesOf(resolver) });
  // Awaited below, in this order: neither is an unhandled rejection while the other runs.
  opening.catch(() => {});
  building.catch(() => {});
  const db = await opening;
  try {
    const composition = (composed = composeModules(createPlatform(config, logger, keyring, db, queues)));
    const { services } = composition;
    await services.jobs.start();
    // A fresh embedded database's snapshot holds the job queue too: the next fresh start skips installing it.
    await db.saveSnapshot();
    const routes = [...defaultRoutes, ...(options.extraRoutes ?? [])];
    const metrics =
      config.METRICS === 'on'
        ? new ServiceMetrics({ db, jobs: services.jobs, cache: services.responseCache, routes })
        : null;
    const gate = new DatabaseGate(db, logger);
    const readiness = new Readiness(db, services.jobs, logger, gate);
    if (config.JOB_WORKERS) {
      await composition.startJobWorkers((queue, run) => (metrics ? metrics.timeJob(queue, run) : run()));
    }
    const schema = await building;
    const graphql = await createGraphqlEndpoint(
      schema,
      services,
      {
        // Every scheme: the operation's own list (Accepts) is enforced once the document is parsed.
        authenticate: (em, authorization, ip) =>
          services.authenticator.authenticate(em, authorization, ALL_SCHEMES, ip),
        assertWritable: (em, locale, mutations) => services.site.assertWritable(em, locale, mutations),
      },
      db,
    );
    const app = express();
    app.disable('x-powered-by');
    if (metrics) app.use(metrics.requests());
    // While the database is unreachable: 503 at once (src/ops/outage.ts).
    app.use(gate.middleware());
    app.use(validOrigin(config.SITE_URL));
    app.set('trust proxy', config.TRUST_PROXY);
    app.set('etag', false);

    app.use((req, res, next) => {
      if (!logger.isLevelEnabled('info')) return next();
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        logger.info(
          { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
          'request',
        );
      });
      next();
    });

    app.get('/healthz', async (_req, res) => {
      try {
        await db.ping();
        sendJson(res, 200, { status: 'ok', database: db.kind });
      } catch (error) {
        logger.error({ err: error }, 'health check failed');
        sendJson(res, 503, { status: 'unavailable', database: db.kind });
      }
    });
    app.get('/readyz', readiness.handler());
    if (metrics) app.get('/metrics', metricsEndpoint(metrics, config.METRICS_TOKEN));

    // Trusted front-end origins may send the session cookie (credentials); every other origin reads
    // the API without it, as in the original.
    const corsHandler = cors((req, callback) => {
      const origin = req.headers.origin;
      const trusted = typeof origin === 'string' && config.SIGNIN_RETURN_ORIGINS.includes(origin);
      callback(null, trusted ? { origin, credentials: true, maxAge: 86400 } : { maxAge: 86400 });
    });
    // The session cookie as credentials (cross-site writes refused): src/auth/session-cookie.ts.
    const cookieCredentials = sessionCookieCredentials(
      { siteUrl: config.SITE_URL, trustedOrigins: config.SIGNIN_RETURN_ORIGINS, domain: config.SESSION_COOKIE_DOMAIN },
      (token) => services.sessions.isValid(db.fork(), token),
    );
    app.use(['/graphql', '/api'], cookieCredentials);
    app.use('/graphql', playground(config));
    app.use('/graphql', corsHandler, ...graphql.handlers);
    // Media (icons, previews, pictures): from DATA_DIR, or streamed from the object store. Unknown files are a JSON 404.
    if (config.STORAGE === 's3') app.get('/user-media/*key', mediaFromStorage(services.storage));
    else {
      app.use(
        '/user-media',
        express.static(join(config.dataDir, 'media'), { maxAge: '1h', index: false, dotfiles: 'ignore' }),
      );
    }
    // The modules' own HTTP (downloads, validation reports, the update service, the blocklist's /v1/,
    // the sign-in pages): each module's `http` (src/<domain>/module.ts).
    for (const mount of composition.http) {
      const handlers = mount.cors ? [corsHandler, mount.handler] : [mount.handler];
      if (mount.method === 'get') app.get(mount.path, ...handlers);
      else app.use(mount.path, ...handlers);
    }
    app.use(
      '/api',
      corsHandler,
      express.json({
        strict: false,
        limit: '2mb',
        type: ['application/json', 'application/*+json'],
        verify: refuseDeepJson,
      }),
      express.urlencoded({ extended: false, limit: '2mb' }),
      createRestHandler({ schema, services, db, routes }),
    );
    app.use((_req, res) => sendJson(res, 404, { detail: 'Not found.' }));
    app.use(errorHandler(logger));

    const purge = setInterval(
      () =>
        void services.apiKeys.purgeExpiredNonces(db.fork()).catch((err) => logger.warn({ err }, 'nonce purge failed')),
      10 * 60_000,
    );
    purge.unref();

    return {
      express: app,
      listen: (port, host) => listen(app, port, host),
      services,
      schema,
      db,
      ops: { readiness, metrics },
      async close() {
        clearInterval(purge);
        gate.stop();
        await graphql.stop();
        await services.jobs.stop({ graceful: true, timeoutMs: 10_000 });
        await composition.close();
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

function listen(app: Express, port: number, host?: string): Promise<Server> {
  // A request without Host reaches validOrigin, which answers it in JSON (Node's own 400 has no body).
  const server = createServer({ requireHostHeader: false }, app);
  server.keepAliveTimeout = 65_000;
  server.on('clientError', clientErrorHandler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Body-parser and other middleware failures, in the original's shapes; never a stack trace. */
function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (error?.type === 'entity.parse.failed') {
      return sendClientError(req, res, 400, `JSON parse error - ${error.message}`);
    }
    if (status === 413) return sendClientError(req, res, 413, 'Request body is too large.');
    if (status >= 400 && status < 500) {
      return sendClientError(req, res, status, error.expose && error.message ? error.message : 'Bad request.');
    }
    if (isDatabaseUnavailable(error)) return sendUnavailable(req, res);
    logger.error({ err: error }, 'unexpected error');
    return sendJson(res, 500, { detail: 'Internal Server Error' });
  };
}

/**
 * A 4xx answered before a handler runs (body parsers, a bad Host), in the shape of the API asked:
 * GraphQL's `{"errors": […]}` on /graphql, DRF's `{"detail"}` elsewhere.
 */
function sendClientError(req: Request, res: Response, status: number, message: string): void {
  if (req.path === '/graphql' || req.path.startsWith('/graphql/')) {
    return sendJson(res, status, { errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] });
  }
  sendJson(res, status, { detail: message });
}

/** The Host header (and, behind a trusted proxy, the forwarded scheme) must make a valid URL. */
function validOrigin(siteUrl: string | undefined): RequestHandler {
  return (req, res, next) => {
    const hostless = !req.headers.host && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
    if (!hostless && URL.canParse(baseUrlOf(req, siteUrl))) return next();
    sendClientError(req, res, 400, 'Invalid Host header.');
  };
}
