import { someInErrorChain } from './error-chain.js';

/** Node's socket errors when the server is gone or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL's SQLSTATEs for a server that cannot serve: class 08 (connection exception),
 * 57P01-57P03 (shutting down, crashed, starting up), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
/** node-postgres's and knex's messages for a connection that died or never came. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Knex: Timeout acquiring a connection',
  'timeout exceeded when trying to connect',
];

/**
 * Whether an error means the database cannot be reached (down, restarting, out of connections)
 * rather than a fault of the request or the code: such requests are answered 503, not 500. Looks
 * through the wrappers (GraphQL's originalError, MikroORM's exceptions, `cause`), a few levels deep.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someInErrorChain(error, (current) => {
    const { code, message, name } = current as { code?: unknown; message?: unknown; name?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
    if (name === 'KnexTimeoutError') return true;
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((m) => message.startsWith(m));
  });
}
