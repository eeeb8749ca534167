import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { DateTimeScalar } from './scalars.js';
import { buildSchema, getMetadataStorage, type ContainerType, type NonEmptyArray } from 'type-graphql';
import type { Services } from '../services.js';
import { resolvers as domainResolvers } from '../domains.js';
import { enforceRequirements } from '../auth/requirements.js';

/** Every resolver class: the domains' (`src/domains.ts`; a domain lists its own in its manifest). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = nonEmpty(domainResolvers);

function nonEmpty<T>(list: T[]): NonEmptyArray<T> {
  if (list.length === 0) throw new Error('No domain contributes a resolver');
  return list as [T, ...T[]];
}

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
