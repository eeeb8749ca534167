import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';

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
