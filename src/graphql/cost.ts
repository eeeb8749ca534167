import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type OperationDefinitionNode,
  type SelectionNode,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../core/pagination.js';

/**
 * The list-size half of the cost limits. graphql-armor's cost rule weighs depth (each level 1.5
 * times the one below) but not list sizes: it multiplies only for literal `first`/`last`, so a
 * `pageSize: 50` page costs what one item costs, and fifteen aliased 50-item pages with authors,
 * previews and files pass it. This rule counts the fields an answer can hold: each field once, and
 * a field that returns a list or a page (`…Page`) and takes a size argument (`pageSize`, `first`,
 * `last`, `limit`) as many times as the items it can return. Over the limit it reports armor's own
 * error (message and code), so both refusals read alike.
 *
 * The size is the literal (services cap it at MAX_PAGE_SIZE and read 0 or less as the default), the
 * variable's default in the operation, or, for a variable without one, MAX_PAGE_SIZE: validation
 * runs once per document (Apollo keeps validated documents), before any variables are known, so a
 * variable costs the most it can ask for. Omitted, it is the argument's default, or
 * DEFAULT_PAGE_SIZE (what `pageRequest` gives).
 */

export const SIZE_ARGUMENTS: ReadonlySet<string> = new Set(['pageSize', 'first', 'last', 'limit']);

/** The number of items a size argument's value can ask for (null: not a number literal). */
function sizeOf(value: ValueNode, variableDefaults: Map<string, ValueNode | undefined>): number | null {
  if (value.kind === Kind.VARIABLE) {
    const fallback = variableDefaults.get(value.name.value);
    return fallback ? sizeOf(fallback, new Map()) : MAX_PAGE_SIZE;
  }
  if (value.kind !== Kind.INT) return null;
  const n = Number(value.value);
  return n > 0 ? Math.min(n, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
}

/** How many times a field's selection is repeated in the answer (1 for anything but sized lists). */
function multiplier(
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variableDefaults: Map<string, ValueNode | undefined>,
): number {
  const type = getNullableType(field.type);
  if (!isListType(type) && !getNamedType(type).name.endsWith('Page')) return 1;
  const argument = field.args.find((a) => SIZE_ARGUMENTS.has(a.name));
  if (!argument) return 1;
  const given = node.arguments?.find((a) => a.name.value === argument.name);
  if (given) return sizeOf(given.value, variableDefaults) ?? 1;
  const fallback = typeof argument.defaultValue === 'number' ? argument.defaultValue : DEFAULT_PAGE_SIZE;
  return Math.min(Math.max(fallback, 1), MAX_PAGE_SIZE);
}

/** The fields each operation's answer can hold; over `maxCost`, armor's error (a validation error, 400). */
export function listCostRule(options: { maxCost: number; exposeLimits: boolean }): ValidationRule {
  return (context) => {
    const schema = context.getSchema();
    /** Fragment costs, computed once per document (in progress: NaN, so a cycle adds nothing). */
    const fragments = new Map<string, number>();

    const selectionsCost = (
      selections: readonly SelectionNode[],
      type: GraphQLNamedType | undefined,
      defaults: Map<string, ValueNode | undefined>,
    ): number => {
      let cost = 0;
      for (const child of selections) cost += selectionCost(child, type, defaults);
      return cost;
    };

    const selectionCost = (
      node: SelectionNode,
      type: GraphQLNamedType | undefined,
      defaults: Map<string, ValueNode | undefined>,
    ): number => {
      if (node.kind === Kind.FIELD) {
        if (node.name.value === '__schema') return 0; // introspection is exempt, as in armor
        if (!node.selectionSet) return 1;
        const field =
          type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields()[node.name.value] : undefined;
        const inner = selectionsCost(node.selectionSet.selections, field && getNamedType(field.type), defaults);
        return 1 + (field ? inner * multiplier(field, node, defaults) : inner);
      }
      if (node.kind === Kind.INLINE_FRAGMENT) {
        const on = node.typeCondition ? schema.getType(node.typeCondition.name.value) : type;
        return selectionsCost(node.selectionSet.selections, on, defaults);
      }
      const name = node.name.value;
      const known = fragments.get(name);
      if (known !== undefined) return Number.isNaN(known) ? 0 : known;
      const fragment: FragmentDefinitionNode | null | undefined = context.getFragment(name);
      if (!fragment) return 0;
      fragments.set(name, NaN);
      const on = schema.getType(fragment.typeCondition.name.value);
      const cost = selectionsCost(fragment.selectionSet.selections, on, defaults);
      fragments.set(name, cost);
      return cost;
    };

    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        const defaults = new Map(
          (operation.variableDefinitions ?? []).map((d) => [d.variable.name.value, d.defaultValue] as const),
        );
        const root = schema.getRootType(operation.operation) ?? undefined;
        const cost = selectionsCost(operation.selectionSet.selections, root, defaults);
        if (cost <= options.maxCost) return;
        const message = options.exposeLimits
          ? `Query Cost limit of ${options.maxCost} exceeded, found ${cost}.`
          : 'Query validation error.';
        // Armor's own report (message and code), so both refusals read alike.
        context.reportError(new GraphQLError(`Syntax Error: ${message}`, { extensions: { code: 'BAD_USER_INPUT' } }));
      },
    };
  };
}
