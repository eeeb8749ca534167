import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isRequiredArgument,
  isScalarType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import {
  type CredentialSpec,
  anyString,
  hostileJson,
  hostileNumber,
  hostileNumberText,
  RawJson,
} from './fuzz-arbitraries.js';

/** A root field of the schema: every one is fuzzed, so a new query or mutation is covered by itself. */
export interface RootOperation {
  operation: 'query' | 'mutation';
  field: GraphQLField<unknown, unknown>;
  /** `Query.addon`, `Mutation.editUser`. */
  label: string;
}

export function rootOperations(schema: GraphQLSchema): RootOperation[] {
  const out: RootOperation[] = [];
  for (const [operation, type] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) {
      out.push({ operation, field, label: `${type.name}.${field.name}` });
    }
  }
  return out;
}

/** An enum value: a bare name in a literal, a string in variables. */
export class EnumLiteral {
  constructor(readonly name: string) {}
}

/** Values that reach the resolvers' lookups (ids, slugs, guids of the fixtures), by argument or field name. */
export type KnownValues = Readonly<Record<string, readonly (string | number)[]>>;

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const asName = (key: string) => (NAME.test(key) ? key : `_${key.replace(/[^_0-9A-Za-z]/g, '_')}`);

/** GraphQL literal text of a generated value. */
export function printLiteral(value: unknown): string {
  if (value instanceof EnumLiteral) return value.name;
  if (value instanceof RawJson) return value.text;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : String(value); // NaN, Infinity: enum-like names
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(printLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${asName(k)}: ${printLiteral(v)}`)
    .join(', ')}}`;
}

/** The value as a JSON variable (enum values become their names). */
export function toVariable(value: unknown): unknown {
  if (value instanceof EnumLiteral) return value.name;
  if (value instanceof RawJson) return value;
  if (Array.isArray(value)) return value.map(toVariable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toVariable(v)]));
  }
  return value;
}

/** A value of the right type for `type` (nulls for nullable positions sometimes). */
export function rightValue(type: GraphQLInputType, name: string, known: KnownValues, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return rightValue(type.ofType, name, known, depth);
  if (isListType(type)) {
    const item = rightValue(type.ofType, name, known, depth + 1);
    return fc.oneof({ arbitrary: fc.array(item, { maxLength: 4 }), weight: 4 }, { arbitrary: item, weight: 1 });
  }
  const pool = known[name];
  const fromPool = pool?.length ? [{ arbitrary: fc.constantFrom(...pool), weight: 6 }] : [];
  if (isEnumType(type)) {
    return fc.constantFrom(...type.getValues().map((v) => new EnumLiteral(v.name)));
  }
  if (isInputObjectType(type)) {
    if (depth > 3) return fc.constant({});
    const fields = Object.values(type.getFields());
    return fc
      .tuple(
        ...fields.map((f) => {
          const value = rightValue(f.type, f.name, known, depth + 1);
          return isNonNullType(f.type) && f.defaultValue === undefined
            ? value.map((v) => ({ set: true, v }))
            : fc.oneof(
                { arbitrary: value.map((v) => ({ set: true, v })), weight: 3 },
                { arbitrary: fc.constant({ set: false, v: undefined as unknown }), weight: 2 },
                { arbitrary: fc.constant({ set: true, v: null as unknown }), weight: 1 },
              );
        }),
      )
      .map((values) => {
        const object: Record<string, unknown> = {};
        fields.forEach((f, i) => {
          if (values[i].set) object[f.name] = values[i].v;
        });
        return object;
      });
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return fc.oneof(
          ...fromPool.map((p) => ({ ...p, arbitrary: p.arbitrary.filter((v) => typeof v === 'number') })),
          { arbitrary: fc.integer({ min: -2, max: 100 }), weight: 3 },
          { arbitrary: fc.constantFrom(0, -1, 2 ** 31 - 1, -(2 ** 31)), weight: 2 },
          { arbitrary: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), weight: 1 },
        );
      case 'Float':
        return fc.oneof(
          { arbitrary: hostileNumber.filter((n) => Number.isFinite(n)), weight: 3 },
          { arbitrary: fc.integer({ min: 0, max: 100 }), weight: 1 },
        );
      case 'Boolean':
        return fc.boolean();
      case 'DateTimeISO':
        return fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom(
            '2020-01-01T00:00:00Z',
            '0000-01-01T00:00:00Z',
            '9999-12-31T23:59:59.999Z',
            '2020-02-30T00:00:00Z',
          ),
        );
      case 'TranslatedInput':
      case 'Translations':
        return fc.oneof(
          { arbitrary: anyString, weight: 3 },
          {
            arbitrary: fc.dictionary(fc.constantFrom('en-US', 'fr', 'de', 'xx', 'EN-us', '', '_default'), anyString, {
              maxKeys: 3,
            }),
            weight: 3,
          },
        );
      case 'JSONObject':
        return fc.dictionary(fc.string({ maxLength: 8 }), hostileJson, { maxKeys: 4 });
      case 'Upload':
        return fc.constant(null);
      default:
        // String, ID and anything new: hostile text, or a value of the fixtures.
        return fc.oneof(...fromPool.map((p) => ({ ...p, arbitrary: p.arbitrary.map(String) })), {
          arbitrary: anyString,
          weight: 5,
        });
    }
  }
  return fc.constant(null);
}

/** A value of the wrong type for `type`: other scalars, objects for lists, unknown enum names, missing fields. */
export function wrongValue(type: GraphQLInputType): fc.Arbitrary<unknown> {
  const named = getNamedType(type);
  const scalarish = fc.oneof(
    anyString,
    hostileNumber,
    hostileNumberText.map((t) => new RawJson(t)),
    fc.boolean(),
    fc.constantFrom(new EnumLiteral('NOT_A_VALUE'), new EnumLiteral('NaN'), new EnumLiteral('Infinity')),
  );
  const structured = fc.oneof(
    fc.array(hostileJson, { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'unknownField', '__proto__', 'constructor'), hostileJson, { maxKeys: 3 }),
    // A deep list: coercion and validation recurse over it.
    fc.constant(new RawJson('['.repeat(3000) + ']'.repeat(3000))),
  );
  if (isNonNullType(type)) return fc.oneof(fc.constant(null), wrongValue(type.ofType));
  if (isListType(type)) return fc.oneof(structured, scalarish, fc.constant([null]));
  if (isInputObjectType(named)) return fc.oneof(scalarish, structured, fc.constant({}));
  if (isEnumType(named))
    return fc.oneof(anyString, hostileNumber, fc.constant(new EnumLiteral('NOT_A_VALUE')), structured);
  return fc.oneof(scalarish, structured);
}

type ArgMode = 'omit' | 'right' | 'wrong' | 'null';

interface ArgChoice {
  arg: GraphQLArgument;
  mode: ArgMode;
  value: unknown;
  asVariable: boolean;
  declaredType: string | null;
}

const WRONG_DECLARATIONS = ['String', 'Int', 'Float!', 'Boolean', '[String]', 'ID!', 'Upload', 'JSONObject', 'Nope'];

function argChoice(arg: GraphQLArgument, known: KnownValues): fc.Arbitrary<ArgChoice> {
  const optional = !isRequiredArgument(arg);
  const modes: { arbitrary: fc.Arbitrary<ArgMode>; weight: number }[] = [
    { arbitrary: fc.constant<ArgMode>('right'), weight: 14 },
    { arbitrary: fc.constant<ArgMode>('wrong'), weight: 3 },
    { arbitrary: fc.constant<ArgMode>('null'), weight: 1 },
    { arbitrary: fc.constant<ArgMode>('omit'), weight: optional ? 4 : 1 },
  ];
  return fc
    .tuple(
      fc.oneof(...modes),
      fc.boolean(),
      fc.oneof(
        { arbitrary: fc.constant(null), weight: 12 },
        { arbitrary: fc.constantFrom(...WRONG_DECLARATIONS), weight: 1 },
      ),
    )
    .chain(([mode, asVariable, wrongDeclaration]) => {
      const value =
        mode === 'right'
          ? rightValue(arg.type, arg.name, known)
          : mode === 'wrong'
            ? wrongValue(arg.type)
            : fc.constant(null);
      return value.map((v): ArgChoice => ({
        arg,
        mode,
        value: v,
        // Upload arguments only work as variables (multipart); RawJson big numbers are fine either way.
        asVariable: getNamedType(arg.type).name === 'Upload' ? true : asVariable,
        declaredType: wrongDeclaration ?? String(arg.type),
      }));
    });
}

const selectionCache = new Map<string, string>();

/** Every leaf (and, `depth` levels down, every object field) a query can select without arguments. */
export function selectionFor(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  const cacheKey = `${named.name}:${depth}`;
  const cached = selectionCache.get(cacheKey);
  if (cached !== undefined) return cached;
  let out = '{ __typename }';
  if (isObjectType(named) || isInterfaceType(named)) {
    const parts = ['__typename'];
    for (const field of Object.values(named.getFields())) {
      if (field.args.some(isRequiredArgument)) continue;
      const fieldType = getNamedType(field.type);
      if (isLeafType(fieldType)) parts.push(field.name);
      else if (depth > 0) parts.push(`${field.name} ${selectionFor(field.type, depth - 1)}`);
    }
    out = `{ ${parts.join(' ')} }`;
  } else if (isUnionType(named)) {
    out = `{ __typename ${named
      .getTypes()
      .map((t) => `... on ${t.name} ${selectionFor(t, Math.max(0, depth - 1))}`)
      .join(' ')} }`;
  }
  selectionCache.set(cacheKey, out);
  return out;
}

export type GraphqlTransport = 'post-json' | 'get' | 'multipart' | 'multipart-truncated' | 'post-form';

export interface GraphqlCase {
  document: string;
  /** JSON text of the variables (RawJson numbers included verbatim). */
  variables: Record<string, unknown>;
  /** Upload variables to fill through the multipart map. */
  uploads: string[];
  transport: GraphqlTransport;
  credential: CredentialSpec;
  /** Index into the caller's file pool for upload parts. */
  file: number;
  variant: string;
}

/** A document selecting `op` with generated arguments (inline or variables), sent one of several ways. */
export function operationCase(
  op: RootOperation,
  known: KnownValues,
  credentials: fc.Arbitrary<CredentialSpec>,
  fileCount: number,
): fc.Arbitrary<GraphqlCase> {
  const args = op.field.args;
  return fc
    .record({
      choices: args.length ? fc.tuple(...args.map((a) => argChoice(a, known))) : fc.constant([] as ArgChoice[]),
      variant: fc.oneof(
        { arbitrary: fc.constant('plain'), weight: 12 },
        { arbitrary: fc.constant('minimal selection'), weight: 3 },
        { arbitrary: fc.constant('unknown argument'), weight: 1 },
        { arbitrary: fc.constant('unknown field'), weight: 1 },
        { arbitrary: fc.constant('aliases'), weight: 1 },
        { arbitrary: fc.constant('no selection'), weight: 1 },
        { arbitrary: fc.constant('hostile directive'), weight: 1 },
      ),
      aliasCount: fc.integer({ min: 2, max: 60 }),
      transport: fc.oneof(
        { arbitrary: fc.constant<GraphqlTransport>('post-json'), weight: 10 },
        { arbitrary: fc.constant<GraphqlTransport>('get'), weight: op.operation === 'query' ? 3 : 1 },
        { arbitrary: fc.constant<GraphqlTransport>('multipart'), weight: 2 },
        { arbitrary: fc.constant<GraphqlTransport>('multipart-truncated'), weight: 1 },
        { arbitrary: fc.constant<GraphqlTransport>('post-form'), weight: 1 },
      ),
      credential: credentials,
      file: fc.nat({ max: Math.max(0, fileCount - 1) }),
    })
    .map(({ choices, variant, aliasCount, transport, credential, file }): GraphqlCase => {
      const variables: Record<string, unknown> = {};
      const definitions: string[] = [];
      const uploads: string[] = [];
      const argTexts: string[] = [];
      for (const choice of choices) {
        if (choice.mode === 'omit') continue;
        if (choice.asVariable) {
          const name = choice.arg.name;
          definitions.push(`$${name}: ${choice.declaredType}`);
          variables[name] = toVariable(choice.value);
          argTexts.push(`${name}: $${name}`);
          if (getNamedType(choice.arg.type).name === 'Upload' && choice.mode === 'right') uploads.push(name);
        } else {
          argTexts.push(`${choice.arg.name}: ${printLiteral(choice.value)}`);
        }
      }
      if (variant === 'unknown argument') argTexts.push('zzUnknown: 1');
      if (variant === 'hostile directive') {
        definitions.push('$skip: Boolean');
        variables.skip = 'yes';
      }
      const argList = argTexts.length ? `(${argTexts.join(', ')})` : '';
      let selection =
        variant === 'minimal selection' || variant === 'aliases'
          ? isLeafType(getNamedType(op.field.type))
            ? ''
            : '{ __typename }'
          : selectionFor(op.field.type, 1);
      if (variant === 'unknown field') selection = selection ? selection.replace(/^\{/, '{ zzNope ') : '{ zzNope }';
      if (variant === 'no selection') selection = '';
      const directive = variant === 'hostile directive' ? ' @include(if: $skip)' : '';
      const field = `${op.field.name}${argList}${directive} ${selection}`;
      const body =
        variant === 'aliases' ? Array.from({ length: aliasCount }, (_, i) => `a${i}: ${field}`).join(' ') : field;
      const head = `${op.operation} Fuzz${definitions.length ? `(${definitions.join(', ')})` : ''}`;
      return { document: `${head} { ${body} }`, variables, uploads, transport, credential, file, variant };
    });
}
