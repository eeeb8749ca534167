import { Kind, parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type ts from 'typescript';
import { operationSchemes, rootFieldNames } from '../../src/access/credentials.js';
import { fieldRequirement } from '../../src/access/requirements.js';
import type { AnyRouteDefinition } from '../../rest-compat/route.js';
import { hoistRepeated } from './hoist.js';
import { readRouteTypes, type RouteSource, type RouteTypes } from './route-types.js';
import { TypeToSchema, type JsonSchema } from './type-schema.js';

export const OPENAPI_VERSION_PATH = 'v5';
/** Where the service serves the document (the original: `/api/v5/schema/`). */
export const OPENAPI_ROUTE_PATH = '/schema/';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const REPLY_CLASSES = new Set(['FileReply', 'RedirectReply', 'JsonReply']);

export interface OpenApiBuild {
  document: Record<string, unknown>;
  /** v5 routes whose entry could not be found in the source (their answers are documented as any JSON). */
  unmatched: string[];
}

/**
 * The OpenAPI 3.1 document of REST v5: one operation per v5 entry of the route table (method,
 * path, its GraphQL operation's description and credentials from the schema), its answer's schema
 * from the type of the entry's `shape` with every gate decided for v5 (see v5-program.ts), its
 * query parameters from what its functions read.
 */
export function buildOpenApi(routes: readonly AnyRouteDefinition[], schema: GraphQLSchema): OpenApiBuild {
  const types = readRouteTypes();
  const converter = new TypeToSchema(types.checker);
  converter.name('TranslatedOutput', types.routeType('TranslatedOutput'));
  converter.name('LinkOutput', types.routeType('LinkOutput'));

  const paths: Record<string, Record<string, unknown>> = {};
  const unmatched: string[] = [];
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (!(route.versions as readonly string[]).includes('v5')) continue;
    const parsed = parse(route.document);
    const operation = parsed.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    )!;
    const operationName = operation.name!.value;
    const source = findSource(types, route, operationName);
    if (!source) unmatched.push(`${route.method} ${route.path}`);
    let operationId = operationName.replace(/^Rest/, '');
    if (operationIds.has(operationId))
      operationId = `${operationId}${route.method[0]}${route.method.slice(1).toLowerCase()}`;
    while (operationIds.has(operationId)) operationId += '_';
    operationIds.add(operationId);

    const root =
      operation.operation === 'mutation'
        ? schema.getMutationType()
        : operation.operation === 'query'
          ? schema.getQueryType()
          : null;
    const fields = rootFieldNames(parsed, operation)
      .filter((n) => !n.startsWith('__'))
      .map((n) => root?.getFields()[n])
      .filter((f) => f !== undefined);
    const requirement = fields.map((f) => fieldRequirement(f)).find((r) => r?.signIn);
    const schemes = route.auth ?? operationSchemes(schema, parsed, operation);
    const security = schemes.map((s) => ({ [s]: [] as string[] }));

    const answer =
      source?.answer ??
      (source && !source.hasShape
        ? types.operationType(operationName, operation.operation === 'mutation' ? 'mutation' : 'query')
        : null);
    const responses = answerResponses(route, source, answer, converter);

    const pathParams = [...route.path.matchAll(/<([a-z_]+)>/gi)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const queryNames = new Set(source?.query ?? []);
    queryNames.delete('lang');
    const parameters = [
      ...pathParams,
      ...(route.method === 'GET' ? [{ $ref: '#/components/parameters/lang' }] : []),
      ...[...queryNames].sort().map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
    ];
    const description = [
      source?.comment ?? null,
      `GraphQL operation \`${operationName}\`${fields.length ? ` (${fields.map((f) => f.name).join(', ')})` : ''}.`,
      ...fields.map((f) => f.description).filter(Boolean),
      source ? `Route entry: \`${source.file}\`.` : 'Route entry not found in the source: answer undocumented.',
    ].filter((line): line is string => Boolean(line));
    const entry: Record<string, unknown> = {
      operationId,
      summary: summaryOf(source?.comment, route),
      description: description.join('\n\n'),
      tags: [route.path.split('/')[1] ?? 'api'],
      ...(parameters.length ? { parameters } : {}),
      ...(WRITE_METHODS.has(route.method) ? { requestBody: requestBody(route) } : {}),
      responses: { ...responses, '4XX': { $ref: '#/components/responses/Error' } },
      security: requirement ? security : [{}, ...security],
    };
    const openApiPath = route.path.replace(/<([a-z_]+)>/gi, '{$1}');
    (paths[openApiPath] ??= {})[route.method.toLowerCase()] = entry;
  }

  const components: Record<string, unknown> = {
    schemas: Object.fromEntries(converter.named.map((n) => [n.name, n.schema])),
    parameters: {
      lang: {
        name: 'lang',
        in: 'query',
        required: false,
        description: 'The language of translated fields (v5: objects of that locale, with the fallback).',
        schema: { type: 'string' },
      },
    },
    responses: {
      Error: {
        description:
          'An error in the original\'s body shape: `{"detail": "…"}`, a map of field names to messages, or a bare list of messages (signing routes: `{"error": "…"}`).',
        content: { 'application/json': { schema: {} } },
      },
    },
    securitySchemes: {
      jwt: {
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
        description: "`Authorization: JWT <token>`: a JWT signed with an API key's secret (iss: the key).",
      },
      session: {
        type: 'http',
        scheme: 'bearer',
        description: '`Authorization: Bearer <session token>` (or `Session <token>`), or the session cookie.',
      },
    },
  };
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Add-ons service REST API v5',
      version: 'v5',
      description:
        "Generated by `npm run openapi:emit` from the REST route table (rest-compat/routes/) and the GraphQL schema. Every REST route runs a named GraphQL operation in-process; the answer schemas are the types of the routes' shapers with the v5 gates decided.",
    },
    servers: [{ url: '/api/v5' }],
    paths,
    components,
  };
  hoistRepeated(document);
  return { document, unmatched };
}

/**
 * The route entry's source: the entry with its method and path, else one whose path template
 * matches (entries made by functions, e.g. the ratings of both paths), the operation's name
 * deciding between several.
 */
function findSource(types: RouteTypes, route: AnyRouteDefinition, operation: string): RouteSource | undefined {
  const forV5 = (r: RouteSource) => r.versions.length === 0 || r.versions.includes('v5');
  const exact = types.routes.filter((r) => r.method === route.method && r.path === route.path && forV5(r));
  if (exact.length) return exact.find((r) => r.operation === operation) ?? exact[0];
  const patterns = types.routes.filter(
    (r) => r.method === route.method && r.path instanceof RegExp && r.path.test(route.path) && forV5(r),
  );
  const named = patterns.find((r) => r.operation === operation);
  if (named) return named;
  const unnamed = patterns.filter((r) => r.operation === null && (r.path as RegExp).source !== '^.*$');
  return unnamed.length === 1 ? unnamed[0] : undefined;
}

function summaryOf(comment: string | null | undefined, route: AnyRouteDefinition): string {
  const first = comment
    ?.split(/\n\n/)[0]
    ?.replace(/\s+/g, ' ')
    .replace(/^`[A-Z]+ [^`]*`:?\s*/, '')
    .trim();
  if (!first) return `${route.method} ${route.path}`;
  const sentence = /^(.*?[.:;])(\s|$)/.exec(first)?.[1] ?? first;
  return sentence.length > 120 ? `${sentence.slice(0, 117)}…` : sentence;
}

function requestBody(route: AnyRouteDefinition) {
  const content: Record<string, unknown> = { 'application/json': { schema: { type: 'object' } } };
  content['multipart/form-data'] = { schema: { type: 'object' } };
  return { required: false, content, ...(route.uploads ? { description: 'Files as multipart parts.' } : {}) };
}

function answerResponses(
  route: AnyRouteDefinition,
  source: RouteSource | undefined,
  answer: ts.Type | null,
  converter: TypeToSchema,
): Record<string, unknown> {
  const statuses = typeof route.status === 'number' ? [route.status] : (source?.statuses ?? [200]);
  const members = answer ? (answer.isUnion() ? answer.types : [answer]) : [];
  const replies = new Map<string, ts.Type[]>();
  const json: ts.Type[] = [];
  for (const member of members) {
    const name = member.getSymbol()?.getName() ?? '';
    if (REPLY_CLASSES.has(name)) replies.set(name, [...(replies.get(name) ?? []), member]);
    else json.push(member);
  }
  const out: Record<string, unknown> = {};
  let schema: JsonSchema = {};
  if (answer) {
    schema = json.length === members.length ? converter.convert(answer) : unionOf(json, converter);
  }
  const hasJson = !answer || json.length > 0 || replies.has('JsonReply');
  // A JsonReply's body is `unknown` to the checker: any JSON.
  if (replies.has('JsonReply')) schema = {};
  for (const status of statuses) {
    if (status === 204) out['204'] = { description: 'No content.' };
    else if (status >= 300 && status < 400) out[String(status)] = { description: 'Redirect.' };
    else if (replies.has('FileReply') && !hasJson) {
      out[String(status)] = { description: 'The file.', content: { 'application/octet-stream': { schema: {} } } };
    } else if (hasJson) {
      out[String(status)] = { description: 'Success.', content: { 'application/json': { schema } } };
    }
  }
  if (replies.has('RedirectReply')) {
    out['302'] = { description: 'Redirect.', headers: { Location: { schema: { type: 'string' } } } };
  }
  if (!Object.keys(out).length) out['200'] = { description: 'Success.' };
  return out;
}

function unionOf(members: ts.Type[], converter: TypeToSchema): JsonSchema {
  if (!members.length) return {};
  const parts = members.map((m) => converter.convert(m));
  return parts.length === 1 ? parts[0]! : { anyOf: parts };
}
