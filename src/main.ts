import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './core/logger.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const app = await createApp(config, logger);
  const server = await app.listen(config.PORT, config.HOST);
  const { port } = server.address() as AddressInfo;
  const base = config.SITE_URL ?? `http://${config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST}:${port}`;
  logger.info({ database: app.db.kind, location: app.db.location }, 'ready');
  // The linter worker and the signing CA start now rather than with the first upload.
  if (config.JOB_WORKERS) app.services.signingTools.warmUp();
  // The two addresses a person starting the service needs, also in plain text.
  process.stderr.write(`\nGraphQL:  ${base}/graphql\nREST:     ${base}/api/v4/  (and ${base}/api/v3/)\n`);
  process.stderr.write(`Database: ${app.db.kind} (${app.db.location})\n\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('graceful shutdown timed out');
      process.exit(1);
    }, 15_000);
    force.unref();
    server.close();
    server.closeIdleConnections();
    try {
      await app.close();
      logger.info('stopped');
      clearTimeout(force);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
