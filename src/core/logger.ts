import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs. The CLI logs to stderr so that its stdout stays machine-readable. */
export function createLogger(level: string, destination: 'stdout' | 'stderr' = 'stdout'): Logger {
  return pino(
    { level, base: { service: 'addons' }, timestamp: pino.stdTimeFunctions.isoTime },
    pino.destination({ fd: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' }),
  );
}
