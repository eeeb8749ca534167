import type { ObservedAnswer } from '../../rest-compat/answer-observer.js';

type Schema = { [key: string]: any } | boolean;
type OpenApi = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

/**
 * Checks recorded REST v5 answers against docs/openapi.json: every 2xx JSON body must match the
 * response schema of its route and status. A missing required field and a field the schema does
 * not name (`additionalProperties: false`) are failures, as are a route or status the document
 * does not have. The validator knows the keywords the generator writes (scripts/openapi/).
 */
export function checkAnswers(
  document: OpenApi,
  answers: readonly ObservedAnswer[],
  /** The product's routes (`method path`); answers of a test's own extra routes are not the API's. */
  productRoutes?: ReadonlySet<string>,
): string[] {
  const problems = new Set<string>();
  for (const answer of answers) {
    if (answer.version !== 'v5' || answer.status < 200 || answer.status >= 300 || answer.method === 'HEAD') continue;
    if (productRoutes && !productRoutes.has(`${answer.routeMethod} ${answer.route}`)) continue;
    const template = answer.route.replace(/<([a-z_]+)>/gi, '{$1}');
    const label = `${answer.routeMethod} ${answer.route} ${answer.status}`;
    const operation = document.paths[template]?.[answer.routeMethod.toLowerCase()];
    if (!operation) {
      problems.add(`${label}: not in the document`);
      continue;
    }
    const response = operation.responses?.[String(answer.status)];
    if (!response) {
      problems.add(`${label}: status not documented`);
      continue;
    }
    if (!answer.contentType?.startsWith('application/json') || answer.body === '') continue;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) {
      problems.add(`${label}: a JSON body where the document has none`);
      continue;
    }
    for (const error of validate(document, schema, JSON.parse(answer.body), '$')) problems.add(`${label}: ${error}`);
  }
  return [...problems].sort();
}

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;

/** The errors of a value against a schema (empty when it conforms), each with the value's path. */
export function validate(document: OpenApi, schema: Schema, value: unknown, path: string): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: not allowed`];
  if (schema.$ref) {
    const name = String(schema.$ref).replace('#/components/schemas/', '');
    const target = document.components.schemas[name];
    if (target === undefined) return [`${path}: unknown $ref ${schema.$ref}`];
    return validate(document, target, value, path);
  }
  const errors: string[] = [];
  if (schema.not && Object.keys(schema.not).length === 0) return [`${path}: not allowed`];
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const actual = typeOf(value);
    const ok = types.some((t) => t === actual || (t === 'integer' && actual === 'number' && Number.isInteger(value)));
    if (!ok) return [`${path}: ${actual} where the document says ${types.join(' or ')}`];
  }
  if (schema.enum && !schema.enum.some((e: unknown) => e === value)) {
    errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!schema[key]) continue;
    const results = (schema[key] as Schema[]).map((s) => validate(document, s, value, path));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 0) {
      errors.push(...results.reduce((best, r) => (r.length < best.length ? r : best)));
    }
  }
  if (typeOf(value) === 'object' && (schema.properties || schema.additionalProperties !== undefined)) {
    const object = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const name of schema.required ?? []) {
      if (!(name in object)) errors.push(`${path}: missing documented field "${name}"`);
    }
    for (const [name, item] of Object.entries(object)) {
      const child = `${path}.${name}`;
      if (name in properties) errors.push(...validate(document, properties[name]!, item, child));
      else if (schema.additionalProperties === false) errors.push(`${child}: field not documented`);
      else if (schema.additionalProperties !== undefined) {
        errors.push(...validate(document, schema.additionalProperties, item, child));
      }
    }
  }
  if (Array.isArray(value)) {
    if (schema.prefixItems) {
      (schema.prefixItems as Schema[]).forEach((s, i) =>
        errors.push(...validate(document, s, value[i], `${path}[${i}]`)),
      );
    } else if (schema.items) {
      value.forEach((item, i) => errors.push(...validate(document, schema.items, item, `${path}[${i}]`)));
    }
  }
  return errors;
}
