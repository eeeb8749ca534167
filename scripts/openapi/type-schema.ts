import ts from 'typescript';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), as the generator writes them. */
export type JsonSchema = { [key: string]: unknown };

/** Named types that become components, by the alias they are declared with (rest-compat/route.ts). */
export interface NamedUnion {
  name: string;
  /** The alias's union members; a union holding all of them refers to the component instead. */
  members: readonly ts.Type[];
  schema: JsonSchema;
}

const MAX_DEPTH = 40;

/**
 * Turns a TypeScript type (a shaper's inferred answer) into a JSON Schema: objects with their
 * properties, `required` for the non-optional ones and no other property allowed; index signatures
 * as `additionalProperties`; unions as `anyOf` (`type` lists and `enum`s where they are scalars);
 * `unknown` as any value. The named unions (TranslatedOutput, LinkOutput) become `$ref`s.
 */
export class TypeToSchema {
  readonly named: NamedUnion[] = [];
  private readonly stack: ts.Type[] = [];

  constructor(private readonly checker: ts.TypeChecker) {}

  /** Registers an alias (its declared type) as a component. */
  name(name: string, type: ts.Type): void {
    const members = type.isUnion() ? type.types : [type];
    const entry: NamedUnion = { name, members, schema: {} };
    this.named.push(entry);
    entry.schema = this.union(members, false);
  }

  convert(type: ts.Type): JsonSchema {
    if (this.stack.length > MAX_DEPTH || this.stack.includes(type)) return {};
    this.stack.push(type);
    try {
      return this.convertType(type);
    } finally {
      this.stack.pop();
    }
  }

  private convertType(type: ts.Type): JsonSchema {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.Never) return { not: {} };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)) return { not: {} };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [(type as ts.StringLiteralType).value] };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', enum: [(type as ts.NumberLiteralType).value] };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', enum: [type === this.checker.getTrueType()] };
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping))
      return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.BigInt) return { type: 'integer' };
    if (f & ts.TypeFlags.EnumLiteral && type.isUnion()) return this.union(type.types, true);
    if (type.isUnion()) return this.union(type.types, true);
    if (type.isIntersection()) return this.object(type);
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      const args = this.checker.getTypeArguments(type as ts.TypeReference);
      if (this.checker.isTupleType(type)) {
        return {
          type: 'array',
          prefixItems: args.map((a) => this.convert(a)),
          minItems: args.length,
          maxItems: args.length,
        };
      }
      return { type: 'array', items: args[0] ? this.convert(args[0]) : {} };
    }
    const symbol = type.getSymbol();
    if (symbol?.getName() === 'Date') return { type: 'string', format: 'date-time' };
    if (f & ts.TypeFlags.Object) return this.object(type);
    return {};
  }

  private union(types: readonly ts.Type[], useNamed: boolean): JsonSchema {
    let members = types.filter((t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    const refs: JsonSchema[] = [];
    if (useNamed) {
      for (const named of this.named) {
        if (named.members.every((m) => members.includes(m))) {
          members = members.filter((m) => !named.members.includes(m));
          refs.push({ $ref: `#/components/schemas/${named.name}` });
        }
      }
    }
    // `true | false` is boolean.
    const bools = members.filter((m) => m.flags & ts.TypeFlags.BooleanLiteral);
    if (bools.length === 2) members = [...members.filter((m) => !bools.includes(m)), this.checker.getBooleanType()];
    const parts = [...refs, ...members.map((m) => this.convert(m))];
    return mergeUnion(parts);
  }

  private object(type: ts.Type): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of this.checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration
        ? this.checker.getTypeOfSymbolAtLocation(property, declaration)
        : this.checker.getTypeOfSymbol(property);
      // Methods are not data (a class instance's prototype).
      if (this.checker.getSignaturesOfType(propertyType, ts.SignatureKind.Call).length && !propertyType.isUnion()) {
        continue;
      }
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      const schema = this.convert(propertyType);
      if (isNever(schema)) continue; // `a?: undefined`: never sent
      properties[property.getName()] = schema;
      if (!optional && !includesUndefined(propertyType)) required.push(property.getName());
    }
    const index = this.checker.getIndexInfosOfType(type);
    const out: JsonSchema = { type: 'object' };
    if (Object.keys(properties).length) out.properties = properties;
    if (required.length) out.required = required;
    const stringIndex = index.find((i) => !(i.keyType.flags & ts.TypeFlags.Number)) ?? index[0];
    out.additionalProperties = stringIndex ? this.convert(stringIndex.type) : false;
    return out;
  }
}

const isNever = (schema: JsonSchema) => 'not' in schema && Object.keys(schema).length === 1;

function includesUndefined(type: ts.Type): boolean {
  return type.isUnion() && type.types.some((t) => t.flags & ts.TypeFlags.Undefined);
}

const SCALARS = new Set(['string', 'number', 'boolean', 'null', 'integer']);

/** The schemas of a union's members as one: scalar types and enums merged, the rest `anyOf`. */
export function mergeUnion(parts: JsonSchema[]): JsonSchema {
  const live = parts.filter((p) => !isNever(p));
  if (live.some((p) => Object.keys(p).length === 0)) return {};
  const types = new Set<string>();
  const enums = new Map<string, unknown[]>();
  const rest: JsonSchema[] = [];
  for (const part of live) {
    const keys = Object.keys(part);
    if (typeof part.type === 'string' && SCALARS.has(part.type) && keys.length === 1) types.add(part.type);
    else if (typeof part.type === 'string' && keys.length === 2 && Array.isArray(part.enum)) {
      enums.set(part.type, [...(enums.get(part.type) ?? []), ...(part.enum as unknown[])]);
    } else rest.push(part);
  }
  const scalars: JsonSchema[] = [];
  for (const [type, values] of enums) {
    if (types.has(type)) continue; // `string | 'a'` is string
    if (type === 'boolean' && values.includes(true) && values.includes(false)) types.add('boolean');
    else scalars.push({ type, enum: [...new Set(values)].sort() });
  }
  if (types.size) {
    const list = [...types].sort();
    scalars.unshift({ type: list.length === 1 ? list[0] : list });
  }
  // A nullable object or array: `type: [object, null]` keeps the object's keywords.
  if (rest.length === 1 && scalars.length === 1 && types.size === 1 && types.has('null')) {
    const only = rest[0]!;
    if (typeof only.type === 'string' && !('$ref' in only)) return { ...only, type: [only.type, 'null'] };
  }
  const all = [...scalars, ...dedupe(rest)];
  if (all.length === 0) return { not: {} };
  if (all.length === 1) return all[0]!;
  return { anyOf: all };
}

function dedupe(schemas: JsonSchema[]): JsonSchema[] {
  const seen = new Set<string>();
  return schemas.filter((s) => {
    const key = JSON.stringify(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
