import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { databaseTarget } from './app.js';
import { commands } from './cli/commands.js';
import { ConfigError, loadConfig } from './config.js';
import { asAppError } from './core/errors.js';
import { createLogger } from './core/logger.js';
import { Keyring } from './core/secrets.js';
import { openDatabase } from './db/database.js';
import { composeModules, databaseSchema, queues } from './modules.js';
import { createPlatform } from './platform.js';

/**
 * Operator commands: `npm run -s cli -- <command> [options]`. Each prints exactly one JSON object
 * on stdout; logs and errors go to stderr. Exit codes: 0 done, 1 failed, 2 usage error.
 */
function usage(): string {
  return [
    'Usage: npm run -s cli -- <command> [options]',
    '',
    ...Object.values(commands).map((c) => `  ${c.usage}\n      ${c.summary}`),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    console.error(usage());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\nUsage: ${command.usage}`);
    return 2;
  }

  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, 'stderr');
  const { keyring } = Keyring.load(config.SECRET_KEY, config.dataDir);
  const db = await openDatabase(databaseTarget(config), { ...databaseSchema, logger });
  try {
    const { services } = composeModules(createPlatform(config, logger, keyring, db, queues));
    const output = await command.run(services, db.fork(), values);
    process.stdout.write(JSON.stringify(output) + '\n');
    return 0;
  } catch (error) {
    const appError = asAppError(error);
    if (!appError) throw error;
    const details = appError.fields
      ? Object.entries(appError.fields).map(([field, messages]) => `${field}: ${messages.join(' ')}`)
      : [appError.message];
    console.error(`${name}: ${details.join('\n')}`);
    return appError.code === 'BAD_PARAMETER' ? 2 : 1;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof ConfigError ? error.message : `Error: ${(error as Error)?.message ?? error}`);
    process.exit(1);
  },
);
