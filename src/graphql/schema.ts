import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { DateTimeScalar } from './scalars.js';
import { buildSchema, getMetadataStorage, type ContainerType, type NonEmptyArray } from 'type-graphql';
import { enforceRequirements } from '../access/requirements.js';

/** The services a resolver class is built with (its module's); null when the schema is only printed. */
export type ResolverServices = ((resolver: unknown) => object | undefined) | null;

/** Resolvers are built with their module's services; no reflection-based DI. */
class ModuleContainer implements ContainerType {
  private readonly instances = new Map<unknown, unknown>();

  constructor(private readonly servicesOf: ResolverServices) {}

  get(someClass: new (services: object) => unknown) {
    let instance = this.instances.get(someClass);
    if (!instance) {
      if (!this.servicesOf) throw new Error('This schema was built without services and cannot execute.');
      const services = this.servicesOf(someClass);
      if (!services) throw new Error(`${someClass.name} is not listed by any module`);
      instance = new someClass(services);
      this.instances.set(someClass, instance);
    }
    return instance;
  }
}

/** The schema of these resolver classes (the modules'), each built with its module's services. */
export async function buildResolverSchema(
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  resolvers: Function[],
  servicesOf: ResolverServices,
): Promise<GraphQLSchema> {
  if (resolvers.length === 0) throw new Error('No module contributes a resolver');
  plainFieldsReadDirectly();
  const schema = await buildSchema({
    resolvers: resolvers as NonEmptyArray<Function>, // eslint-disable-line @typescript-eslint/no-unsafe-function-type
    container: new ModuleContainer(servicesOf),
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
