import type { JsonSchema } from './type-schema.js';

/** Object schemas with at least this many properties become components when they occur twice. */
const MIN_PROPERTIES = 3;
const MAX_ROUNDS = 20;

type Visit = (schema: JsonSchema, hint: string) => JsonSchema | undefined;

const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('') || 'Object';

const singular = (name: string) => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.replace(/s$/, ''));

/** Walks a schema's subschemas (pre-order); a visit returning a schema replaces that subschema. */
function walkChildren(schema: JsonSchema, hint: string, visit: Visit): void {
  const child = (value: unknown, childHint: string, set: (next: JsonSchema) => void) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    const replaced = visit(value as JsonSchema, childHint);
    if (replaced) set(replaced);
    else walkChildren(value as JsonSchema, childHint, visit);
  };
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties) for (const key of Object.keys(properties)) child(properties[key], key, (n) => (properties[key] = n));
  if (schema.items) child(schema.items, singular(hint), (n) => (schema.items = n));
  if (typeof schema.additionalProperties === 'object') {
    child(schema.additionalProperties, `${hint} value`, (n) => (schema.additionalProperties = n));
  }
  for (const key of ['anyOf', 'oneOf', 'prefixItems'] as const) {
    const list = schema[key] as JsonSchema[] | undefined;
    list?.forEach((s, i) => child(s, hint, (n) => (list[i] = n)));
  }
}

const hoistable = (schema: JsonSchema) =>
  !('$ref' in schema) &&
  Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}).length >= MIN_PROPERTIES;

/**
 * Makes every object schema that occurs more than once a named component (`#/components/schemas`),
 * largest first, until none repeats: the add-on, version, file and user objects many answers share
 * are written once. Names come from the property the schema first appears under.
 */
export function hoistRepeated(document: { paths: Record<string, any>; components: Record<string, any> }): void {
  const schemas = document.components.schemas as Record<string, JsonSchema>;
  const roots = (): { schema: JsonSchema; hint: string; set: ((n: JsonSchema) => void) | null }[] => {
    const out: { schema: JsonSchema; hint: string; set: ((n: JsonSchema) => void) | null }[] = [];
    for (const methods of Object.values(document.paths)) {
      for (const operation of Object.values(methods) as any[]) {
        for (const response of Object.values(operation.responses ?? {}) as any[]) {
          for (const media of Object.values(response.content ?? {}) as any[]) {
            if (media.schema)
              out.push({ schema: media.schema, hint: operation.operationId, set: (n) => (media.schema = n) });
          }
        }
      }
    }
    for (const [name, schema] of Object.entries(schemas)) out.push({ schema, hint: name, set: null });
    return out;
  };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const counts = new Map<string, { count: number; hint: string }>();
    const count: Visit = (schema, hint) => {
      if (!hoistable(schema)) return undefined;
      const key = JSON.stringify(schema);
      const seen = counts.get(key);
      if (seen) seen.count++;
      else counts.set(key, { count: 1, hint });
      return undefined;
    };
    for (const root of roots()) {
      if (root.set) count(root.schema, root.hint);
      walkChildren(root.schema, root.hint, count);
    }
    const repeated = [...counts].filter(([, v]) => v.count > 1);
    if (!repeated.length) return;
    // Largest first: its inner repeats are hoisted in the next rounds.
    const longest = Math.max(...repeated.map(([key]) => key.length));
    const chosen = new Map<string, string>();
    for (const [key, { hint }] of repeated) {
      if (key.length < longest / 2 && chosen.size) continue;
      let name = pascal(hint);
      for (let i = 2; name in schemas || [...chosen.values()].includes(name); i++) name = `${pascal(hint)}${i}`;
      chosen.set(key, name);
    }
    const replace: Visit = (schema) => {
      const name = hoistable(schema) ? chosen.get(JSON.stringify(schema)) : undefined;
      if (!name) return undefined;
      if (!(name in schemas)) schemas[name] = structuredClone(schema);
      return { $ref: `#/components/schemas/${name}` };
    };
    for (const root of roots()) {
      const replaced = root.set ? replace(root.schema, root.hint) : undefined;
      if (replaced) root.set!(replaced);
      else walkChildren(root.schema, root.hint, replace);
    }
  }
}
