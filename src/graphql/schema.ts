import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { DateTimeScalar } from './scalars.js';
import { buildSchema, getMetadataStorage, type ContainerType, type NonEmptyArray } from 'type-graphql';
import { AccountsResolver } from '../accounts/accounts.resolver.js';
import { UserSummaryResolver } from '../accounts/accounts.summary.js';
import { AddonAuthorResolver, AddonSummaryResolver } from '../catalogue/catalogue.summary.js';
import { SiteResolver } from '../site/site.resolver.js';
import { CatalogueResolver } from '../catalogue/catalogue.resolver.js';
import { ListingResolver } from '../catalogue/listing.resolver.js';
import { LifecycleResolver } from '../catalogue/lifecycle/lifecycle.resolver.js';
import { SearchResolver } from '../search/search.resolver.js';
import { FileResolver, LicenseResolver, PreviewResolver, VersionResolver } from '../catalogue/version.resolver.js';
import type { Services } from '../services.js';
import { SigningResolver } from '../signing/signing.resolver.js';
import { ReviewsResolver } from '../reviews/reviews.resolver.js';
import { DraftCommentsResolver } from '../reviews/draft-comments.resolver.js';
import { VersionBrowseResolver } from '../reviews/browse/browse.resolver.js';
import { CollectionAddonsResolver, CollectionsResolver } from '../collections/collections.resolver.js';
import { RatingPageResolver, RatingsResolver } from '../ratings/ratings.resolver.js';
import { AbuseResolver } from '../abuse/abuse.resolver.js';
import { CurationLogResolver, ShelvesResolver } from '../shelves/shelves.resolver.js';
import { DiscoveryResolver } from '../shelves/discovery.resolver.js';
import { enforceRequirements } from '../auth/requirements.js';

/** Every resolver class. A domain adds its resolver here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  SiteResolver,
  AccountsResolver,
  UserSummaryResolver,
  CatalogueResolver,
  AddonSummaryResolver,
  AddonAuthorResolver,
  VersionResolver,
  LicenseResolver,
  FileResolver,
  PreviewResolver,
  SearchResolver,
  ListingResolver,
  LifecycleResolver,
  SigningResolver,
  ReviewsResolver,
  DraftCommentsResolver,
  VersionBrowseResolver,
  CollectionsResolver,
  CollectionAddonsResolver,
  RatingsResolver,
  RatingPageResolver,
  AbuseResolver,
  ShelvesResolver,
  CurationLogResolver,
  DiscoveryResolver,
];

/** Resolvers are built with the service singletons; no reflection-based DI. */
class ServiceContainer implements ContainerType {
  private readonly instances = new Map<unknown, unknown>();

  constructor(private readonly services: Services | null) {}

  get(someClass: new (services: Services) => unknown) {
    let instance = this.instances.get(someClass);
    if (!instance) {
      if (!this.services) throw new Error('This schema was built without services and cannot execute.');
      instance = new someClass(this.services);
      this.instances.set(someClass, instance);
    }
    return instance;
  }
}

/** The executable schema. Without services it can only be printed (schema.graphql). */
export async function buildAppSchema(services: Services | null): Promise<GraphQLSchema> {
  plainFieldsReadDirectly();
  const schema = await buildSchema({
    resolvers,
    container: new ServiceContainer(services),
    validate: false,
    emitSchemaFile: false,
    scalarsMap: [{ type: Date, scalar: DateTimeScalar }],
  });
  // Each root field's @Requires: checked before its resolver (both APIs), stated in its description.
  enforceRequirements(schema);
  return schema;
}

/** The SDL checked in as schema.graphql. */
export function printAppSchema(schema: GraphQLSchema): string {
  return printSchema(lexicographicSortSchema(schema)) + '\n';
}

/**
 * Fields without a resolver method are read straight from their object (no type-graphql wrapper),
 * so graphql-jit compiles them to property reads: type-graphql otherwise wraps every field in a
 * resolver that runs its middleware chain, which cost ~6% of a search page's CPU. We use no
 * middlewares or `@Authorized` (each operation's credentials and requirements are declared beside it,
 * `@Accepts` and `@Requires`; requirements are checked by wrapping the root resolvers after the build), and this
 * refuses to build a schema that does. A field renamed in the schema keeps the wrapper, which reads
 * the property under its own name.
 */
function plainFieldsReadDirectly(): void {
  for (const field of getMetadataStorage().fields) {
    if (field.middlewares?.length || field.roles?.length) {
      throw new Error(`${field.target.name}.${field.name}: field middlewares and @Authorized are not supported`);
    }
    field.simple ??= field.schemaName === field.name;
  }
}
