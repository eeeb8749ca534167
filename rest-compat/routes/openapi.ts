import { readFileSync } from 'node:fs';
import { errors } from '../../src/core/errors.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';

/** docs/openapi.json from the sources (rest-compat/routes/) or from the build (dist/rest-compat/routes/). */
const CANDIDATES = ['../../docs/openapi.json', '../../../docs/openapi.json'].map((p) => new URL(p, import.meta.url));

let loaded: Record<string, unknown> | null = null;

/** The document, read once (it changes only with the code: `npm run openapi:emit`). */
function openApiDocument(): Record<string, unknown> {
  if (loaded) return loaded;
  for (const url of CANDIDATES) {
    try {
      loaded = JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>;
      return loaded;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  throw errors.notFound();
}

/** The original answers JSON with `?format=json` (and YAML otherwise); only JSON is served here. */
function formatParam(req: RestRequest) {
  const format = req.query.get('format');
  if (format !== null && format !== 'json') throw errors.notFound();
  return {};
}

/**
 * `GET /api/v5/schema/`: the OpenAPI 3.1 document of REST v5 (docs/openapi.json, generated from
 * this route table and the GraphQL schema by `npm run openapi:emit`), where the original serves
 * its own (`/api/v5/schema/?format=json`). JSON only.
 */
export const openApiRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/schema/',
    versions: ['v5'],
    document: gql`
      query RestOpenApiSchema {
        __typename
      }
    `,
    variables: formatParam,
    shape: (): Record<string, unknown> => openApiDocument(),
  },
]);
