import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { findInvalidText, refuseInvalidText } from '../src/core/input-guards.js';
import { isMultipart } from '../src/core/multipart.js';
import { requestUrlOf, sendJson } from '../src/core/http.js';
import { resolveRequestLocale } from '../src/core/i18n/locales.js';
import type { Database } from '../src/db/database.js';
import type { Services } from '../src/modules.js';
import { watchAnswer } from './answer-observer.js';
import { toRestError, type ErrorFieldNames, type ErrorStyle } from './errors.js';
import { RouteExecution } from './execution.js';
import { multipartReader } from './multipart-body.js';
import { replyPrivately, replyShared } from './replies.js';
import type { AnyRouteDefinition } from './route.js';
import { compileRoutes } from './route-table.js';
import { matchRoute, restRequestOf, versionedPath } from './routing.js';
import { SharedAnswers, type AnswerSharing } from './shared-answers.js';

export { compileRoutes, type CompileRoutesOptions } from './route-table.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface RestEngineOptions {
  schema: GraphQLSchema;
  services: Services;
  db: Database;
  routes: readonly AnyRouteDefinition[];
}

/**
 * Serves `/api/v3/...`, `/api/v4/...` and `/api/v5/...`, one request as a pipeline of steps:
 * 1. route it (routing.ts): the version from the path, writes refused in read-only mode, the route
 *    for the path and method, the request as the route reads it;
 * 2. a shared answer (shared-answers.ts): an anonymous hit answered before anything else, the
 *    caller authenticated with the schemes the route's operation accepts, then a public hit (or an
 *    anonymous one for a plain viewer);
 * 3. the body: a multipart body read only now (multipart-body.ts), so an unknown caller's upload
 *    never touches the disk;
 * 4. the run (execution.ts): the request mapped to variables, the pre-parsed document executed
 *    in-process against the same schema and context as /graphql;
 * 5. the reply (replies.ts): shaped for this caller only, or stored and shared.
 * Errors, wherever they arise, are answered in the route's error style (errors.ts).
 */
export function createRestHandler({ schema, services, db, routes }: RestEngineOptions): RequestHandler {
  const table = compileRoutes(schema, routes, { jit: 'lazy' });
  const { logger, config } = services;
  const sharedAnswers = new SharedAnswers(services.responseCache, config);
  const readMultipart = multipartReader(services);

  return async (req: Request, res: Response) => {
    let style: ErrorStyle = 'drf';
    let fieldNames: ErrorFieldNames | undefined;
    const fail = (caught: unknown) => {
      const error = toRestError(caught, style, logger, fieldNames);
      sendJson(res, error.status, error.body, error.headers);
    };
    let sharing: AnswerSharing | undefined;
    try {
      // 1. Routing. SITE_URL (or the checked Host) and the path and query: an absolute-form target's authority is ignored.
      const requestUrl = requestUrlOf(req, config.SITE_URL);
      const target = versionedPath(requestUrl);
      if (!target) return sendJson(res, 404, { detail: 'Not found.' });
      const em = db.fork();
      const locale = resolveRequestLocale(requestUrl.searchParams.get('lang'), req.headers['accept-language']);
      if (!SAFE_METHODS.has(req.method)) await services.site.assertWritable(em, locale);
      const match = matchRoute(table.get(target.version)!, target.path, req.method);
      if ('refused' in match) return sendJson(res, match.refused.status, match.refused.body, match.refused.headers);
      const { route, params } = match;
      watchAnswer(res, target.version, req.method, route.definition.path, route.definition.method);
      style = route.definition.errorStyle ?? 'drf';
      let request = restRequestOf(req, target.version, params, requestUrl, locale);
      fieldNames = route.definition.errorFields?.(request);

      // 2. A shared answer, before and after authentication.
      sharing = sharedAnswers.forRequest(req, route, request);
      const early = await sharing.beforeAuthentication(em);
      if (early) return sharing.send(res, early);
      const viewer = await services.authenticator.authenticate(
        em,
        req.headers.authorization,
        route.schemes,
        req.ip ?? null,
      );
      const late = await sharing.afterAuthentication(em, viewer);
      if (late) return sharing.send(res, late);

      // 3. The body.
      if (isMultipart(req)) request = { ...request, body: await readMultipart(req, res, route.definition, viewer) };
      refuseInvalidText(findInvalidText(request.body));

      // 4. The run, and 5. its reply.
      const execution = new RouteExecution({ route, request, req, em, viewer, services });
      const routeTags = sharing.tags(execution.variables);
      if (routeTags === null) return await replyPrivately({ res, execution, fail }, services);
      return await replyShared({ res, execution, fail }, sharing, routeTags);
    } catch (caught) {
      return fail(caught);
    } finally {
      sharing?.release();
    }
  };
}
