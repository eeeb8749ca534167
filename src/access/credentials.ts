import {
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { Extensions } from 'type-graphql';
import type { RequestViewer } from '../core/context.js';
import { errors } from '../core/errors.js';

/** `jwt`: API keys (`Authorization: JWT …`); `session`: internal tokens (`Bearer …` or `Session …`). */
export type AuthScheme = 'jwt' | 'session';

/** What an operation accepts unless it says otherwise: the internal session tokens only. */
export const DEFAULT_SCHEMES: readonly AuthScheme[] = ['session'];
/** Every scheme there is: a request is authenticated with any of them, then held to its operation's own. */
export const ALL_SCHEMES: readonly AuthScheme[] = ['jwt', 'session'];

const EXTENSION = 'credentials';

/**
 * Declares, next to a query or mutation, which credentials it accepts. Without it an operation
 * accepts sessions only: an API key (JWT), which lives in CI configuration, reaches only the
 * operations that declare it (signing, the profile, account edits, super-create).
 */
export const Accepts = (...schemes: AuthScheme[]) => Extensions({ [EXTENSION]: schemes });

/** The credentials a root field declares it accepts (`@Accepts`; sessions only without it). */
export function declaredSchemes(field: { extensions?: Record<string, unknown> | null }): readonly AuthScheme[] {
  return (field.extensions?.[EXTENSION] as AuthScheme[] | undefined) ?? DEFAULT_SCHEMES;
}

/** The credentials a root field accepts. */
function fieldSchemes(type: GraphQLObjectType, name: string): readonly AuthScheme[] | null {
  if (name.startsWith('__')) return null; // introspection: no rule of its own
  const field = type.getFields()[name];
  if (!field) return null; // unknown: validation refuses the document
  return declaredSchemes(field);
}

/**
 * The credentials an operation accepts: those accepted by every root field it selects (through
 * fragments too). Both APIs ask this one function: the REST engine once per route at boot, the
 * GraphQL endpoint once per request.
 */
export function operationSchemes(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): readonly AuthScheme[] {
  const root =
    operation.operation === 'query'
      ? schema.getQueryType()
      : operation.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  if (!root) return ALL_SCHEMES;
  let accepted = new Set<AuthScheme>(ALL_SCHEMES);
  for (const name of rootFieldNames(document, operation)) {
    const schemes = fieldSchemes(root, name);
    if (schemes) accepted = new Set(schemes.filter((s) => accepted.has(s)));
  }
  return ALL_SCHEMES.filter((s) => accepted.has(s));
}

/** The names of the root fields an operation selects, through fragments too (in document order). */
export function rootFieldNames(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const names: string[] = [];
  const visited = new Set<string>();
  const visit = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        names.push(selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return names;
}

const SCHEME_NAMES: Record<AuthScheme, string> = { jwt: 'API keys (JWT)', session: 'session tokens' };

/**
 * GraphQL's rule: credentials of a scheme the operation does not accept are refused outright (the
 * REST API, like the original, treats them as absent; see Authenticator.authenticate).
 */
export function assertSchemeAccepted(viewer: RequestViewer, accepted: readonly AuthScheme[]): void {
  if (!viewer.method || accepted.includes(viewer.method)) return;
  const allowed = accepted.length ? accepted.map((s) => SCHEME_NAMES[s]).join(' or ') : 'no credentials';
  throw errors.forbidden(`This operation does not accept ${SCHEME_NAMES[viewer.method]}; it accepts ${allowed}.`);
}
