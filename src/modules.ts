import type { GraphQLSchema } from 'graphql';
import type { AnyModule, HttpMount, Platform, ServicesOf } from './core/module.js';
import { buildResolverSchema } from './graphql/schema.js';
import type { QueueDefinitions, WorkOptions } from './jobs/queue.port.js';
import { platformQueues, type ServiceJobs } from './jobs/service-jobs.js';
import { siteModule } from './site/module.js';
import { accountsModule } from './accounts/module.js';
import { authModule } from './auth/module.js';
import { catalogueModule } from './catalogue/module.js';
import { searchModule } from './search/module.js';
import { blocklistModule } from './blocklist/module.js';
import { scannersModule } from './scanners/module.js';
import { reviewsModule } from './reviews/module.js';
import { signingModule } from './signing/module.js';
import { collectionsModule } from './collections/module.js';
import { ratingsModule } from './ratings/module.js';
import { abuseModule } from './abuse/module.js';
import { curationModule } from './curation/module.js';
import { shelvesModule } from './shelves/module.js';
import { discoveryModule } from './discovery/module.js';
import { webhooksModule } from './webhooks/module.js';
import { trustedPublishingModule } from './trusted-publishing/module.js';
import { signinModule } from './signin/module.js';
import { updatesModule } from './updates/module.js';
import { developersModule } from './developers/module.js';

/**
 * Every domain (the composition). A new domain is its folder with a `module.ts`, its line here, and
 * its REST entries in `rest-compat/routes/index.ts`. A module comes after the modules it depends on
 * (checked when composed); the resolvers' order is the schema build's (schema.graphql is printed
 * sorted, so it does not change the file).
 */
export const modules = [
  siteModule,
  accountsModule,
  catalogueModule,
  authModule,
  searchModule,
  blocklistModule,
  reviewsModule,
  scannersModule,
  signingModule,
  collectionsModule,
  ratingsModule,
  abuseModule,
  curationModule,
  shelvesModule,
  discoveryModule,
  webhooksModule,
  trustedPublishingModule,
  signinModule,
  updatesModule,
  developersModule,
] as const satisfies readonly AnyModule[];

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * Every module's services and the platform, as one object: the composition's view, for the edges
 * that mount domains (src/app.ts, the REST engine, the CLI) and for tests. Domain code never sees it:
 * a resolver gets its own module's services, a module's factory those of the modules it depends on.
 */
export type Services = Platform & Intersection<ServicesOf<(typeof modules)[number]>>;

/** The domains' entities, given to the database port (`openDatabase`), which adds its own (cache tags). */
export const entities = modules.flatMap((module) => module.entities);

/** The tables the domains' migrations create that no entity maps (see `DomainModule`). */
export const unmappedTables = modules.flatMap((module) => module.unmappedTables ?? []);

/**
 * Every module's migrations, in the order of their names (timestamps): one history across domains,
 * as MikroORM records it (by name).
 */
export const migrations = modules
  .flatMap((module) => (module as AnyModule).migrations ?? [])
  .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** What the database port is opened with: the modules' entities, unmapped tables and migrations. */
export const databaseSchema = { entities, unmappedTables, migrations };

/** Every GraphQL resolver class, in the modules' order. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: Function[] = modules.flatMap((module) => module.resolvers);

/** Every job queue: the platform's and the modules'; one name declared twice stops the boot. */
export const queues = queuesOf(modules);

export function queuesOf(list: readonly AnyModule[]): QueueDefinitions<ServiceJobs> {
  const found: Record<string, QueueDefinitions<ServiceJobs>[keyof ServiceJobs]> = { ...platformQueues };
  for (const module of list) {
    for (const [name, job] of Object.entries(module.jobs ?? {})) {
      if (name in found) throw new Error(`module ${module.name}: job ${name} is declared twice`);
      found[name] = job!.queue;
    }
  }
  return found as QueueDefinitions<ServiceJobs>;
}

/** The modules built on a platform: their services, each resolver's services, their jobs and closing. */
export interface Composition {
  readonly services: Services;
  /** The services a resolver class is built with: its own module's. */
  servicesOf(resolver: unknown): object | undefined;
  /** The modules' plain HTTP endpoints, in the modules' order. */
  readonly http: readonly HttpMount[];
  /** Starts this process's job workers; `timed` wraps each job (metrics). */
  startJobWorkers(timed: (queue: keyof ServiceJobs, run: () => Promise<unknown>) => Promise<unknown>): Promise<void>;
  /** Releases what modules hold (after the job queue stopped). */
  close(): Promise<void>;
}

/** Builds every module in order (each from the services of those it depends on) and wires their subscribers. */
export function composeModules(platform: Platform, list: readonly AnyModule[] = modules): Composition {
  const built = new Map<string, object>();
  const byResolver = new Map<unknown, object>();
  for (const module of list) {
    const deps: Record<string, object> = {};
    for (const dependency of module.dependsOn as readonly AnyModule[]) {
      const services = built.get(dependency.name);
      if (!services)
        throw new Error(`module ${module.name} depends on ${dependency.name}, which is not listed before it`);
      deps[dependency.name] = services;
    }
    const services = module.services(platform, deps) as object;
    built.set(module.name, services);
    for (const resolver of module.resolvers) byResolver.set(resolver, services);
    for (const subscriber of module.subscribers?.(services, deps, platform) ?? [])
      platform.events.subscribe(subscriber);
  }
  const all: Record<string, unknown> = { ...platform };
  for (const [name, services] of built) {
    for (const [key, value] of Object.entries(services)) {
      if (key in all && all[key] !== value) throw new Error(`module ${name}: services.${key} is another module's`);
      all[key] = value;
    }
  }
  const http = list.flatMap((module) => module.http?.(built.get(module.name)!, platform) ?? []);
  return {
    services: all as unknown as Services,
    http,
    servicesOf: (resolver) => byResolver.get(resolver),
    async startJobWorkers(timed) {
      const { jobs, config } = platform;
      await jobs.work('domain-event', (job) => timed('domain-event', () => platform.events.deliver(job.data)), {
        concurrency: 2,
      });
      for (const module of list) {
        const services = built.get(module.name)!;
        for (const [name, job] of Object.entries(module.jobs ?? {}) as [
          keyof ServiceJobs,
          NonNullable<AnyModule['jobs']>[keyof ServiceJobs],
        ][]) {
          const handle = job!.handle(services);
          const work: WorkOptions | undefined = typeof job!.work === 'function' ? job!.work(config) : job!.work;
          await jobs.work(name, (delivered) => timed(name, () => handle(delivered as never)), work);
        }
      }
    },
    async close() {
      for (const module of list) await module.close?.(built.get(module.name)!);
    },
  };
}

/**
 * The executable schema of a composition (asked for a resolver's services on its first use, so it
 * may be composed after the build); without one it can only be printed (schema.graphql).
 */
export function buildAppSchema(composition: Pick<Composition, 'servicesOf'> | null): Promise<GraphQLSchema> {
  return buildResolverSchema(resolvers, composition && ((resolver) => composition.servicesOf(resolver)));
}
