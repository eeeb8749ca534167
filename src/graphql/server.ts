import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type RequestHandler } from 'express';
import { GraphQLError, Kind, type GraphQLSchema } from 'graphql';
import graphqlUploadExpress from 'graphql-upload/graphqlUploadExpress.mjs';
import { createRequestContext, type RequestContext } from '../core/context.js';
import { asAppError, type AppError } from '../core/errors.js';
import { baseUrlOf } from '../core/http.js';
import { resolveRequestLocale } from '../core/i18n/locales.js';
import type { Database } from '../db/database.js';
import type { Services } from '../services.js';
import { MUTATIONS_ALLOWED_WHEN_READ_ONLY } from '../site/site.service.js';

export interface GraphqlEndpoint {
  handlers: RequestHandler[];
  stop(): Promise<void>;
}

export const MAX_UPLOAD_BYTES = 250 * 1024 * 1024;

/** An AppError as an HTTP-level GraphQL error (Apollo reads `extensions.http`, then strips it). */
function withStatus(error: AppError, status: number): GraphQLError {
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { ...error.extensions, http: { status } },
  });
}

/** While read-only, mutations fail before execution with the same localized 503 as REST writes. */
function readOnlyPlugin(services: Services): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          const fields = operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : '*'));
          if (fields.every((f) => MUTATIONS_ALLOWED_WHEN_READ_ONLY.has(f))) return;
          try {
            await services.site.assertWritable(contextValue.em, contextValue.locale);
          } catch (error) {
            const appError = asAppError(error);
            throw appError ? withStatus(appError, 503) : error;
          }
        },
      };
    },
  };
}

/**
 * JSON answers carry `Content-Type: application/json` exactly, as on the REST side. Apollo adds
 * `; charset=utf-8` on several paths (results, request errors), so the header is fixed on its way out.
 */
const exactJsonContentType: RequestHandler = (_req, res, next) => {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) =>
    setHeader(
      name,
      name.toLowerCase() === 'content-type' && value === 'application/json; charset=utf-8' ? 'application/json' : value,
    );
  next();
};

export async function createGraphqlEndpoint(
  schema: GraphQLSchema,
  services: Services,
  db: Database,
): Promise<GraphqlEndpoint> {
  const { logger, config } = services;
  const server = new ApolloServer<RequestContext>({
    schema,
    introspection: config.GRAPHQL_INTROSPECTION,
    csrfPrevention: true,
    // main.ts owns shutdown; Apollo's own signal handler would race it (a second stop() never settles).
    stopOnTerminationSignals: false,
    plugins: [readOnlyPlugin(services)],
    formatError(formatted, error) {
      const original = unwrapResolverError(error);
      if (asAppError(error) || original instanceof GraphQLError) return formatted;
      logger.error({ err: original }, 'unexpected error in GraphQL request');
      return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    },
  });
  await server.start();

  const context = async ({ req }: { req: express.Request }): Promise<RequestContext> => {
    const em = db.fork();
    const ip = req.ip ?? null;
    const locale = resolveRequestLocale(req.query?.lang, req.headers['accept-language']);
    try {
      const viewer = await services.authenticator.authenticate(em, req.headers.authorization, ['jwt', 'session'], ip);
      return createRequestContext({ em, viewer, locale, request: { baseUrl: baseUrlOf(req, config.SITE_URL), ip } });
    } catch (error) {
      const appError = asAppError(error);
      throw appError ? withStatus(appError, 401) : error;
    }
  };

  return {
    handlers: [
      exactJsonContentType,
      graphqlUploadExpress({ maxFileSize: MAX_UPLOAD_BYTES, maxFiles: 10 }),
      express.json({ limit: '2mb' }),
      expressMiddleware(server, { context }),
    ],
    stop: () => server.stop(),
  };
}
