import type { MappingOptions, ValidationResults } from './results.js';

/** Parent → worker. The worker acknowledges each request, then answers with a result or a failure. */
export interface LintRequest {
  type: 'lint';
  id: number;
  path: string;
  options: MappingOptions;
}

/** Sent once the linter is imported and has linted a built-in package. */
export interface ReadyMessage {
  type: 'ready';
  rss: number;
  importMs: number;
  warmUpMs: number;
}

/** The worker has the request and starts linting: a crash from now on is the package's doing. */
export interface AcceptedMessage {
  type: 'accepted';
  id: number;
  rss: number;
}

export interface ResultMessage {
  type: 'result';
  id: number;
  rss: number;
  lintMs: number;
  results: ValidationResults;
}

/** The linter threw (an unreadable path, a bug) but the worker is fine. */
export interface FailureMessage {
  type: 'failure';
  id: number;
  rss: number;
  error: string;
}

export type WorkerMessage = ReadyMessage | AcceptedMessage | ResultMessage | FailureMessage;

const WORKER_MESSAGE_TYPES: ReadonlySet<unknown> = new Set(['ready', 'accepted', 'result', 'failure']);

export function isWorkerMessage(value: unknown): value is WorkerMessage {
  return typeof value === 'object' && value !== null && 'type' in value && WORKER_MESSAGE_TYPES.has(value.type);
}

export function isLintRequest(value: unknown): value is LintRequest {
  return typeof value === 'object' && value !== null && 'type' in value && value.type === 'lint';
}
