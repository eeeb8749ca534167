import type { Response } from 'express';
import type { ApiVersion } from './gates.js';

/** One REST answer as sent: the route template it matched, its status and its body's text. */
export interface ObservedAnswer {
  version: ApiVersion;
  /** The request's method (`HEAD` as sent, though it runs the `GET` route). */
  method: string;
  /** The route entry's path template (`/addons/addon/<addon>/`). */
  route: string;
  routeMethod: string;
  status: number;
  contentType: string | null;
  body: string;
}

export type AnswerObserver = (answer: ObservedAnswer) => void;

let observer: AnswerObserver | null = null;

/**
 * Sets (or with null, removes) the one observer of REST answers. Tests use it to record every
 * answer of a run and check it against docs/openapi.json (test/openapi/); nothing in the service
 * sets it, and while none is set the engine's call below returns at once.
 */
export function observeRestAnswers(next: AnswerObserver | null): void {
  observer = next;
}

/** Called by the engine once a request matched a route: hands the answer to the observer when it ends. */
export function watchAnswer(
  res: Response,
  version: ApiVersion,
  method: string,
  route: string,
  routeMethod: string,
): void {
  const observe = observer;
  if (!observe) return;
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown) => {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk);
    return write(chunk, ...rest);
  }) as Response['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk);
    const type = res.getHeader('Content-Type');
    observe({
      version,
      method,
      route,
      routeMethod,
      status: res.statusCode,
      contentType: typeof type === 'string' ? type : null,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    return end(chunk, ...rest);
  }) as Response['end'];
}
