import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLDateTimeISO, GraphQLJSONObject } from 'graphql-scalars';

/** A translated text as stored: `{ "en-US": "…", "fr": "…" }`. */
export const TranslationsScalar = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  name: 'Translations',
  description: 'A translated text: an object of locale code to text, e.g. {"en-US": "Hello", "fr": "Bonjour"}.',
});

function literal(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
      return ast.value;
    case Kind.NULL:
      return null;
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value)]));
    default:
      throw new GraphQLError('TranslatedInput must be a string or an object of locale code to string.');
  }
}

/**
 * Input for a translated field: one string (stored for the request's language) or an object of
 * locale code to string. Locale codes are checked by the service, with the original's message.
 */
export const TranslatedInputScalar = new GraphQLScalarType({
  name: 'TranslatedInput',
  description:
    'A translated text to store: a string (for the current request language) or an object of locale code to string (null removes a locale).',
  serialize: (value) => value,
  parseValue(value) {
    if (value === null || typeof value === 'string') return value;
    if (typeof value === 'object' && !Array.isArray(value)) return value;
    throw new GraphQLError('TranslatedInput must be a string or an object of locale code to string.');
  },
  parseLiteral: literal,
});

/** Years every column and client can hold (PostgreSQL refuses year 0, JavaScript 275,760+). */
const MIN_YEAR = 1;
const MAX_YEAR = 9999;

function inRange(value: unknown): Date {
  if (!(value instanceof Date) || value.getUTCFullYear() < MIN_YEAR || value.getUTCFullYear() > MAX_YEAR) {
    throw new GraphQLError(`DateTimeISO must be a date between the years ${MIN_YEAR} and ${MAX_YEAR}.`);
  }
  return value;
}

/**
 * graphql-scalars' DateTimeISO (the one type-graphql maps `Date` to), refusing dates the database
 * cannot store: a bad input is the client's validation error, not a 500 from PostgreSQL.
 */
export const DateTimeScalar = new GraphQLScalarType({
  ...GraphQLDateTimeISO.toConfig(),
  parseValue: (value) => inRange(GraphQLDateTimeISO.parseValue(value)),
  parseLiteral: (ast, variables) => inRange(GraphQLDateTimeISO.parseLiteral(ast, variables)),
});
