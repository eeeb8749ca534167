import type { GatewayInterface } from '@apollo/server-gateway-interface';
import { compileQuery, isCompiledQuery, type CompilerOptions } from 'graphql-jit';
import {
  execute,
  getVariableValues,
  GraphQLError,
  Kind,
  valueFromASTUntyped,
  type DocumentNode,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
} from 'graphql';
import type { RequestContext } from '../core/context.js';
import { WeighedLru } from './bounded-caches.js';
import { inOperationTransaction, runsInTransaction } from './transactions.js';

/**
 * GraphQL execution by graphql-jit: an operation is compiled once into a function that coerces the
 * variables, calls the resolvers and serialises the values, instead of `execute` walking the
 * document at every request. Used by the REST routes (compiled at boot) and by /graphql (Apollo's
 * executor: a repeated query compiles once while it stays among the recently used ones).
 */

export type CompiledOperation = (
  context: unknown,
  variables: Record<string, unknown>,
) => PromiseOrValue<ExecutionResult>;
type PromiseOrValue<T> = T | Promise<T>;

/** Errors keep no stack (the error mappers read codes and messages, never stacks). */
const OPTIONS: Partial<CompilerOptions> = { disablingCapturingStackErrors: true };

/** The operation compiled, or the errors that stopped it (an unknown operation name, say). */
export function compileOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CompiledOperation | ExecutionResult {
  const compiled = compileQuery(schema, document, operationName ?? undefined, OPTIONS);
  if (!isCompiledQuery(compiled)) return compiled as ExecutionResult;
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
  // graphql-jit 0.8 refuses an omitted non-null variable that has a default: defaults are filled in first.
  const defaults = (operation?.variableDefinitions ?? [])
    .filter((d) => d.defaultValue)
    .map((d) => [d.variable.name.value, valueFromASTUntyped(d.defaultValue!)] as const);
  const execute = (context: unknown, values: Record<string, unknown>) => {
    const result = compiled.query(undefined, context, values);
    return isPromise(result) ? result.then(withExtensions) : withExtensions(result);
  };
  // A mutation runs in one transaction, for both APIs (see transactions.ts).
  const transaction = runsInTransaction(schema, document, operation);
  const run: CompiledOperation = (context, variables) => {
    let values = variables;
    for (const [name, value] of defaults) if (values[name] === undefined) values = { ...values, [name]: value };
    if (!transaction) return execute(context, values);
    return inOperationTransaction(context as RequestContext, (ctx) => execute(ctx, values));
  };
  SOURCES.set(run, estimatedSourceChars(document, operation));
  return run;
}

/**
 * The generated source of an operation, estimated from the fields it selects (fragments expanded):
 * 2,500 characters and 1,100 a field (graphql-jit 0.8 on the REST documents: 3,100 to 6,300 for
 * one to three fields, 780 to 1,450 a field past 15; within a factor of 2, a test checks).
 * graphql-jit keeps that text (the function's source), and code besides.
 */
export function estimatedSourceChars(document: DocumentNode, operation: OperationDefinitionNode | undefined): number {
  const fragments = new Map<string, number>();
  const definitions = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const fields = (selections: readonly SelectionNode[]): number => {
    let n = 0;
    for (const s of selections) {
      if (s.kind === Kind.FIELD) n += 1 + (s.selectionSet ? fields(s.selectionSet.selections) : 0);
      else if (s.kind === Kind.INLINE_FRAGMENT) n += fields(s.selectionSet.selections);
      else {
        let known = fragments.get(s.name.value);
        if (known === undefined) {
          fragments.set(s.name.value, 0); // a cycle (refused by validation) counts nothing more
          known = fields(definitions.get(s.name.value)?.selectionSet.selections ?? []);
          fragments.set(s.name.value, known);
        }
        n += known;
      }
    }
    return n;
  };
  return 2_500 + 1_100 * fields(operation?.selectionSet.selections ?? []);
}

const isPromise = <T>(value: PromiseOrValue<T>): value is Promise<T> =>
  typeof (value as Promise<T>)?.then === 'function';

/**
 * graphql-jit leaves `extensions` undefined on errors whose original error has none (graphql's
 * own errors always have an object there, and Apollo's error formatting reads it).
 */
function withExtensions(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.some((error) => !error.extensions)) return result;
  const errors = result.errors.map((error) => {
    if (error.extensions) return error;
    const copy = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined });
    (copy as { locations?: unknown }).locations = error.locations;
    return copy;
  });
  return { ...result, errors };
}

/**
 * Characters of generated source (estimated) the compiled operations of /graphql may hold in all:
 * about 3 MB with their code; the 87 REST documents, were they all sent, would weigh 3.3 million.
 */
export const COMPILED_SOURCE_CHARS = 2 * 1024 * 1024;

const SOURCES = new WeakMap<CompiledOperation, number>();

/** A compiled operation's generated source, in characters, estimated (an answer of errors weighs little). */
const compiledWeight = (operation: CompiledOperation | ExecutionResult): number =>
  typeof operation === 'function' ? (SOURCES.get(operation) ?? 1) : 1;

/**
 * Apollo's executor through its gateway interface (the one way Apollo Server takes another
 * executor): parsing, validation, plugins and error formatting stay Apollo's.
 */
export function jitGateway(
  schema: GraphQLSchema,
  maxSourceChars = COMPILED_SOURCE_CHARS,
): GatewayInterface & { readonly compiled: { readonly size: number; readonly weight: number } } {
  // By the document's hash and the operation: not kept for as long as Apollo keeps the document
  // (bounded-caches.ts), a compiled operation weighs its generated source, and code as much again.
  const compiled = new WeighedLru<CompiledOperation | ExecutionResult>(maxSourceChars, 1_000, compiledWeight);
  let announce: ((schemaContext: { apiSchema: GraphQLSchema; coreSupergraphSdl: string }) => void) | undefined;
  return {
    compiled,
    onSchemaLoadOrUpdate(callback) {
      announce = callback;
      return () => (announce = undefined);
    },
    async load() {
      announce?.({ apiSchema: schema, coreSupergraphSdl: '' });
      return {
        async executor(requestContext) {
          const { document, operationName, request, context } = requestContext;
          // No such operation: graphql's own answer ("Unknown operation named …") to the name asked
          // for (`operationName` here is the resolved operation's, null when none resolved).
          if (!requestContext.operation) {
            const asked = request.operationName;
            return execute({
              schema,
              document,
              operationName: asked,
              variableValues: request.variables,
              contextValue: context,
            });
          }
          const key = `${requestContext.queryHash} ${operationName ?? ''}`;
          let operation = compiled.get(key);
          if (!operation) compiled.set(key, (operation = compileOperation(schema, document, operationName)));
          if (typeof operation !== 'function') return operation;
          // Variables are checked as Apollo's own executor checks them (graphql's coercion, its
          // messages and the scalars' own, BAD_USER_INPUT with a 400) before the compiled code runs.
          const definitions = requestContext.operation.variableDefinitions ?? [];
          const coerced = getVariableValues(schema, definitions, request.variables ?? {}, { maxErrors: 50 });
          if (coerced.errors) {
            return {
              errors: coerced.errors.map(
                (error) =>
                  new GraphQLError(error.message, {
                    nodes: error.nodes,
                    originalError: error.originalError,
                    extensions: { ...error.extensions, code: 'BAD_USER_INPUT', http: { status: 400 } },
                  }),
              ),
            };
          }
          return operation(context, request.variables ?? {});
        },
      };
    },
    async stop() {},
  };
}
