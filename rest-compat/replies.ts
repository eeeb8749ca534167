import type { Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PRIVATE_CACHE_HEADERS, sharedAnswer } from '../src/core/http-caching.js';
import { sendBytes, sendJson, sendJsonText } from '../src/core/http.js';
import type { Services } from '../src/modules.js';
import type { RouteExecution } from './execution.js';
import { FileReply, JsonReply, RedirectReply } from './http.js';
import type { AnswerSharing } from './shared-answers.js';

/** The last step of a request: its route's run, answered to the caller or stored and shared. */
export interface Reply {
  res: Response;
  execution: RouteExecution;
  /** Sends an error as the route renders errors. */
  fail(error: unknown): void;
}

/**
 * An answer for this caller only (a GET's marked private): a page from parts, a redirect, a
 * stored file (HEAD: from its metadata, its bytes never opened), JSON with headers of its own, or JSON.
 */
export async function replyPrivately(
  { res, execution, fail }: Reply,
  files: Pick<Services, 'downloads' | 'versionBrowse'>,
): Promise<void> {
  const result = await execution.runPrivately();
  if (result.errors?.length) return fail(result.errors[0]);
  const { req, em, route } = execution.input;
  const get = route.definition.method === 'GET';
  if (execution.parts) {
    const text = await execution.assemble(result.data);
    if (get) for (const [name, value] of Object.entries(PRIVATE_CACHE_HEADERS)) res.setHeader(name, value);
    return sendJsonText(res, execution.status(result.data), text);
  }
  const body = execution.shape(result.data);
  if (body instanceof RedirectReply) return redirect(res, body);
  if (body instanceof FileReply) return sendFile(res, body, await openFile(files, em, body, req.method === 'HEAD'));
  if (body instanceof JsonReply) {
    return sendJson(res, execution.status(result.data), body.body, { ...PRIVATE_CACHE_HEADERS, ...body.headers });
  }
  return sendJson(res, execution.status(result.data), body, get ? PRIVATE_CACHE_HEADERS : {});
}

/**
 * A shared answer, computed, stored and sent. The versions it is stored under never postdate what
 * it shows: the listing tags' versions are read before anything else, each row's tag version in
 * the statement that reads the row (the loaders). A write committing meanwhile therefore leaves
 * the stored answer outdated at once, never stale.
 */
export async function replyShared(
  { res, execution, fail }: Reply,
  sharing: AnswerSharing,
  routeTags: readonly string[],
): Promise<void> {
  const { em, services } = execution.input;
  const recorded = await services.responseCache.recorder(em, ['global', ...routeTags]);
  const result = await execution.run(recorded);
  if (result.errors?.length) return fail(result.errors[0]);
  const text = execution.parts
    ? await execution.assemble(result.data, recorded)
    : JSON.stringify(execution.shape(result.data));
  const answer = sharedAnswer(execution.status(result.data), text ?? '');
  sharing.store(answer, recorded);
  return sharing.send(res, answer);
}

/** A stored file's bytes (a package, or one file inside it), or with `head` its size only; null: none. */
function openFile(
  files: Pick<Services, 'downloads' | 'versionBrowse'>,
  em: EntityManager,
  reply: FileReply,
  head: boolean,
): Promise<{ stream: NodeJS.ReadableStream; size: number } | number | null> {
  if (reply.member === undefined)
    return head ? files.downloads.size(em, reply.fileId) : files.downloads.open(em, reply.fileId);
  return head
    ? files.versionBrowse.size(em, reply.fileId, reply.member)
    : files.versionBrowse.open(em, reply.fileId, reply.member);
}

function redirect(res: Response, reply: RedirectReply) {
  res.status(302);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.setHeader('Location', reply.location);
  res.end();
}

function sendFile(
  res: Response,
  reply: FileReply,
  file: { stream: NodeJS.ReadableStream; size: number } | number | null,
) {
  if (file === null) return sendJson(res, 404, { detail: 'Not found.' });
  res.status(200);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', reply.contentType);
  sendBytes(res, file);
}
