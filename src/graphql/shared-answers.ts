import type { GraphQLField, GraphQLNamedType } from 'graphql';
import { Extensions } from 'type-graphql';

const EXTENSION = 'sharedAnswer';

/**
 * The cache tags a root field's answer depends on besides the rows its loaders record (listing
 * tags: which rows a page lists and in what order), from its arguments as the resolver gets them;
 * null when this answer is never shared (a random order, a filter no tag covers).
 */
export type ListingTags = (args: Record<string, unknown>) => readonly string[] | null;

type Rule = boolean | ListingTags;

/**
 * Declares, next to a type, a field or a root query, that what it answers an anonymous caller is
 * the same for every anonymous caller and that everything it reads is covered by cache tags: each
 * row's tag recorded by the loader reading it (`recordCacheTag`, in the statement that reads the
 * row), or listing tags from the arguments (`ListingTags`, on a root query). Answers made only of
 * such fields are shared by anonymous callers (the GraphQL answer cache, response-cache.plugin.ts).
 *
 * On a type, every field of the type (those another domain's resolver adds too) unless the field
 * says otherwise (`@NotShared()`); a root query must declare itself. Fields that depend on the
 * caller beyond being anonymous (a random order, the request's address) must not be declared.
 * A loader that finds it cannot vouch for what it read (too many tags) calls `forgoSharing`.
 */
export const Shared = (tags: true | ListingTags = true) => Extensions({ [EXTENSION]: tags });

/** A field of a shared type whose answer is not shared (its reads carry no tag). */
export const NotShared = () => Extensions({ [EXTENSION]: false });

/**
 * How a field's anonymous answer may be shared: `true` (its rows' tags are recorded), its listing
 * tags' rule, or null (never shared: neither the field nor its type is declared).
 */
export function sharedRule(
  parent: GraphQLNamedType,
  field: Pick<GraphQLField<unknown, unknown>, 'extensions'>,
): true | ListingTags | null {
  const declared = (field.extensions?.[EXTENSION] ?? parent.extensions?.[EXTENSION]) as Rule | undefined;
  return declared === undefined || declared === false ? null : declared;
}
