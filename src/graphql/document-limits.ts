import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { GraphQLArmorConfig } from '@escape.tech/graphql-armor-types';
import { GraphQLError, Lexer, Source, TokenKind, type ValidationRule } from 'graphql';
import type { RequestHandler } from 'express';
import type { Settings as Config } from '../core/settings.js';
import type { RequestContext } from '../core/context.js';
import { MAX_JSON_DEPTH } from '../core/input-guards.js';
import { getParams } from './get-params.js';
import { listCostRule } from './cost.js';

/**
 * Limits on the GraphQL documents /graphql accepts, before and during validation (see docs/operations.md:
 * "Answer cache and GraphQL limits"): graphql-armor's depth, alias, cost and directive rules, the fields an answer can
 * hold with its lists at their page size (cost.ts), list and object values nested no deeper than
 * variables may be (checked before parsing), and variables the operation declares.
 */

/**
 * Fields an answer may hold, each list counted at its page size (cost.ts). The largest REST
 * document, a collection's add-ons at 50 a page, holds 6,401; a search page of 50, 4,801.
 */
export const MAX_LIST_COST = 15_000;

/** Deepest nesting of list and object values in a document: the variables' JSON limit. */
export const MAX_VALUE_DEPTH = MAX_JSON_DEPTH;

function armorConfig(config: Config): GraphQLArmorConfig {
  return {
    // Introspection is on for the playground, so hiding suggestions would protect nothing.
    blockFieldSuggestion: { enabled: false },
    maxDepth: { n: config.GRAPHQL_MAX_DEPTH, exposeLimits: true },
    maxAliases: { n: config.GRAPHQL_MAX_ALIASES, exposeLimits: true },
    costLimit: { maxCost: config.GRAPHQL_MAX_COST, exposeLimits: true },
    // Enforced by graphql's own parser (parseOptions in server.ts), which stops before nesting overflows it.
    maxTokens: { enabled: false },
    maxDirectives: { n: config.GRAPHQL_MAX_DIRECTIVES, exposeLimits: true },
  };
}

/** Armor's validation rules and plugins, and the list cost rule after them. */
export function documentLimits(config: Config): {
  validationRules: ValidationRule[];
  plugins: ApolloServerPlugin<RequestContext>[];
} {
  const armor = new ApolloArmor(armorConfig(config)).protect();
  return {
    validationRules: [
      ...(armor.validationRules as ValidationRule[]),
      listCostRule({ maxCost: MAX_LIST_COST, exposeLimits: true }),
    ],
    plugins: armor.plugins as unknown as ApolloServerPlugin<RequestContext>[],
  };
}

/**
 * Where list or object values in `query` nest deeper than `maxDepth` (`[[[…]]]` as an argument or
 * a default), or null. graphql's parser recurses once per level and a list level is one token, so
 * within the token limit such a value overflows the stack ("Maximum call stack size exceeded").
 * The lexer reads tokens one after the other (linear, no recursion); values are what brackets and
 * braces hold inside parentheses (arguments, variable definitions); a selection set is not a value.
 * Scanning stops after `maxTokens` tokens (the parser refuses longer documents) or at a lexical
 * error (the parser reports it).
 */
export function deepValueAt(
  query: string,
  maxDepth: number,
  maxTokens: number,
): { line: number; column: number } | null {
  const lexer = new Lexer(new Source(query));
  let parentheses = 0;
  let depth = 0;
  try {
    for (let n = 0; n <= maxTokens; n++) {
      const token = lexer.advance();
      switch (token.kind) {
        case TokenKind.EOF:
          return null;
        case TokenKind.PAREN_L:
          parentheses++;
          break;
        case TokenKind.PAREN_R:
          parentheses = Math.max(0, parentheses - 1);
          depth = 0;
          break;
        case TokenKind.BRACKET_L:
        case TokenKind.BRACE_L:
          if (parentheses > 0 && ++depth > maxDepth) return { line: token.line, column: token.column };
          break;
        case TokenKind.BRACKET_R:
        case TokenKind.BRACE_R:
          if (parentheses > 0) depth = Math.max(0, depth - 1);
          break;
      }
    }
  } catch {
    // A lexical error: the parser reports it.
  }
  return null;
}

/**
 * Refuses a document whose values nest deeper than MAX_VALUE_DEPTH before Apollo parses it: a 400
 * with graphql's syntax-error body, as the parser's own token limit answers.
 */
export function deepValueGuard(maxTokens: number): RequestHandler {
  return (req, res, next) => {
    const get = getParams(res);
    const query = get ? req.query?.query : (req.body as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string') return next();
    const at = deepValueAt(query, MAX_VALUE_DEPTH, maxTokens);
    if (!at) return next();
    res.status(400).json({
      errors: [
        {
          message: `Syntax Error: List and object values nest deeper than ${MAX_VALUE_DEPTH} levels. Parsing aborted.`,
          locations: [at],
          extensions: { code: 'GRAPHQL_PARSE_FAILED' },
        },
      ],
    });
  };
}

/**
 * Variables the operation does not declare are refused (GraphQL over HTTP lets a server do so):
 * executing would ignore them, but they would still make new keys in the answer cache.
 */
export function declaredVariablesPlugin(): ApolloServerPlugin<RequestContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, operation }) {
          const given = request.variables;
          if (!operation || !given) return;
          const declared = new Set((operation.variableDefinitions ?? []).map((d) => d.variable.name.value));
          const undeclared = Object.keys(given).find((name) => !declared.has(name));
          if (undeclared === undefined) return;
          const which = operation.name ? `operation "${operation.name.value}"` : 'the operation';
          const name = undeclared.length > 64 ? `${undeclared.slice(0, 64)}…` : undeclared;
          throw new GraphQLError(`Variable "$${name}" is not declared by ${which}.`, {
            extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
          });
        },
      };
    },
  };
}
