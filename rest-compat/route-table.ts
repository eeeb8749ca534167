import {
  Kind,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { operationSchemes, type AuthScheme } from '../src/access/credentials.js';
import { compileOperation, type CompiledOperation } from '../src/graphql/jit.js';
import type { ApiVersion } from './gates.js';
import type { AnyRouteDefinition, RouteDefinition } from './route.js';

/**
 * The route table, compiled: every route's document parsed, validated and checked against the
 * credentials its operation accepts, its path made a pattern, per API version.
 */

/** A route of either table, as the engine handles it (the version it sees is the path's). */
export type EngineRoute = RouteDefinition<any, ApiVersion>;

export interface CompiledRoute {
  definition: EngineRoute;
  /** The document compiled by graphql-jit (same results as `execute`, less work per request). */
  run: CompiledOperation;
  /** Routes assembled from parts: the skeleton and the parts' documents, compiled. */
  parts?: { skeleton: CompiledOperation; run: CompiledOperation };
  /** Credentials accepted: the operation's (see Accepts), narrowed by the route's `auth`. */
  schemes: readonly AuthScheme[];
  pattern: RegExp;
  paramNames: string[];
}

export interface CompileRoutesOptions {
  /**
   * When graphql-jit compiles the documents: `eager`, here (a failure is one of the problems);
   * `lazy`, at each route's first request (the server's boot: compiling all of them was a sixth
   * of its start's work; rest-compat/engine.test.ts compiles the whole table eagerly).
   */
  jit?: 'eager' | 'lazy';
}

/**
 * Parses and validates every route's document against the schema. Any problem stops the boot
 * with the list of bad routes, so a broken entry never reaches a request.
 */
export function compileRoutes(
  schema: GraphQLSchema,
  routes: readonly AnyRouteDefinition[],
  options: CompileRoutesOptions = {},
): Map<ApiVersion, CompiledRoute[]> {
  const jit = options.jit ?? 'eager';
  const problems: string[] = [];
  const byVersion = new Map<ApiVersion, CompiledRoute[]>([
    ['v3', []],
    ['v4', []],
    ['v5', []],
  ]);
  const seen = new Set<string>();
  // Each entry is only ever called with a version it declares (the path's), so the wider type is safe.
  for (const definition of routes as readonly EngineRoute[]) {
    const label = `${definition.method} ${definition.path} (${definition.versions.join(', ')})`;
    const compiled = compileDocument(schema, definition.document, label, problems, jit);
    if (!compiled) continue;
    const accepted = operationSchemes(schema, compiled.document, compiled.operation);
    const narrowed = definition.auth ?? accepted;
    const extra = narrowed.filter((scheme) => !accepted.includes(scheme));
    if (extra.length) {
      problems.push(`${label}: auth ${extra.join(', ')} is not accepted by ${compiled.operation.name!.value}'s fields`);
      continue;
    }
    const { run } = compiled;
    let parts: CompiledRoute['parts'];
    if (definition.parts) {
      const skeleton = compileDocument(schema, definition.parts.skeleton, `${label} skeleton`, problems, jit);
      const partsRun = compileDocument(schema, definition.parts.document, `${label} parts`, problems, jit);
      if (!skeleton || !partsRun) continue;
      parts = { skeleton: skeleton.run, run: partsRun.run };
    }
    const { pattern, paramNames } = compilePath(definition.path);
    for (const version of definition.versions) {
      const key = `${version} ${definition.method} ${pattern.source}`;
      if (seen.has(key)) problems.push(`${label}: declared twice for ${version}`);
      seen.add(key);
      byVersion.get(version)!.push({
        definition,
        run,
        parts,
        schemes: narrowed,
        pattern,
        paramNames,
      });
    }
  }
  if (problems.length) throw new Error(`Invalid REST route table:\n  ${problems.join('\n  ')}`);
  return byVersion;
}

/** One document parsed, checked (one named operation, valid) and compiled; null after a problem. */
function compileDocument(
  schema: GraphQLSchema,
  source: string,
  label: string,
  problems: string[],
  jit: 'eager' | 'lazy',
): { document: DocumentNode; operation: OperationDefinitionNode; run: CompiledOperation } | null {
  let document: DocumentNode;
  try {
    document = parse(source);
  } catch (error) {
    problems.push(`${label}: ${(error as Error).message}`);
    return null;
  }
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (operations.length !== 1 || !operations[0].name) {
    problems.push(`${label}: the document must hold exactly one named operation`);
    return null;
  }
  const validationErrors = validate(schema, document);
  if (validationErrors.length) {
    problems.push(`${label}: ${validationErrors.map((e) => e.message).join('; ')}`);
    return null;
  }
  const name = operations[0].name.value;
  if (jit === 'lazy')
    return { document, operation: operations[0], run: compiledAtFirstRun(schema, document, name, label) };
  const run = compileOperation(schema, document, name);
  if (typeof run !== 'function') {
    problems.push(`${label}: ${jitErrors(run)}`);
    return null;
  }
  return { document, operation: operations[0], run };
}

const jitErrors = (result: ExecutionResult) => `graphql-jit: ${result.errors?.map((e) => e.message).join('; ')}`;

/** A validated document compiled by graphql-jit when first run (a failure, which eager compiling rules out in the tests, is a 500). */
function compiledAtFirstRun(
  schema: GraphQLSchema,
  document: DocumentNode,
  name: string,
  label: string,
): CompiledOperation {
  let compiled: CompiledOperation | undefined;
  return (context, variables) => {
    if (!compiled) {
      const run = compileOperation(schema, document, name);
      if (typeof run !== 'function') throw new Error(`${label}: ${jitErrors(run)}`);
      compiled = run;
    }
    return compiled(context, variables);
  };
}

function compilePath(path: string): { pattern: RegExp; paramNames: string[] } {
  if (!path.startsWith('/')) throw new Error(`Route path must start with "/": ${path}`);
  const paramNames: string[] = [];
  const source = path
    .split(/(<[a-z_]+>)/i)
    .map((part) => {
      const param = /^<([a-z_]+)>$/i.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      paramNames.push(param[1]);
      return '([^/]+)';
    })
    .join('');
  return { pattern: new RegExp(`^${source}$`), paramNames };
}
