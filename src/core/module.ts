import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import type { RequestHandler } from 'express';
import type { Database } from '../db/database.js';
import type { DomainEventMap, DomainEvents, EventSubscriber } from '../events/domain-events.js';
import type { JobHandler, JobQueue, QueueDefinition, WorkOptions } from '../jobs/queue.port.js';
import type { ServiceJobs } from '../jobs/service-jobs.js';
import type { Mailer } from '../mail/mailer.port.js';
import type { Storage } from '../storage/storage.port.js';
import type { ImageRenderer } from './images.js';
import type { OutgoingLinks } from './links.js';
import type { Logger } from './logger.js';
import type { Settings, SettingsSlice } from './settings.js';
import type { ResponseCache } from './response-cache.js';
import type { Keyring } from './secrets.js';
import type { UploadSlots } from './upload-slots.js';

/**
 * What every domain may use and no domain owns (`src/platform.ts` builds it): the configuration,
 * the database, the job queue and the event bus, storage, mail, images, the answer cache.
 */
export interface Platform {
  /** Every setting (the platform's and every module's slice), validated at boot. */
  readonly config: Settings;
  readonly logger: Logger;
  readonly keyring: Keyring;
  readonly db: Database;
  readonly jobs: JobQueue<ServiceJobs>;
  /** Durable domain events: published in a change's transaction, delivered to subscribers after commit. */
  readonly events: DomainEvents<DomainEventMap>;
  /** Public media (icons, previews), served at /user-media/. */
  readonly storage: Storage;
  /** Add-on packages (uploads, signed files): never served directly. */
  readonly files: Storage;
  readonly mailer: Mailer;
  /** Image decoding (icons, previews, account pictures): one bounded queue, pixel limits per purpose. */
  readonly images: ImageRenderer;
  /** Cached answers of REST and GraphQL (one memory budget, RESPONSE_CACHE_MB). */
  readonly responseCache: ResponseCache;
  readonly links: OutgoingLinks;
  readonly uploadSlots: UploadSlots;
  /** SITE_URL without a trailing slash (default `http://localhost:<PORT>`), and its host name. */
  readonly siteUrl: string;
  readonly siteHost: string;
}

/** One background job a module runs: its queue's policy, and its handler from the module's services. */
export interface ModuleJob<S, N extends keyof ServiceJobs = keyof ServiceJobs> {
  readonly queue: QueueDefinition;
  /** How many run at once in this process, and the idle poll interval (default: one at a time). */
  readonly work?: WorkOptions | ((config: Settings) => WorkOptions);
  readonly handle: (services: S) => JobHandler<ServiceJobs[N]>;
}

export type ModuleJobs<S> = { readonly [N in keyof ServiceJobs]?: ModuleJob<S, N> };

/** Plain HTTP a module serves beside the APIs (downloads, pages, browser endpoints), mounted by the app. */
export interface HttpMount {
  /** `get`: one route (express's path syntax); `use`: everything under a prefix (a router). */
  readonly method: 'get' | 'use';
  readonly path: string | string[];
  readonly handler: RequestHandler;
  /** Cross-origin callers are answered with the API's CORS rules. */
  readonly cors?: boolean;
}

/** A module's services, from the module's definition. */
export type ServicesOf<M> = M extends DomainModule<string, infer S, any> ? S : never;

/** The services of the modules a module depends on, by module name. */
export type DependencyServices<D extends readonly AnyModule[]> = {
  readonly [M in D[number] as M['name']]: ServicesOf<M>;
};

export type AnyModule = DomainModule<string, any, any>;

/**
 * A domain: one folder under `src/`, one module object (`src/<domain>/module.ts`), one line in the
 * module list (`src/modules.ts`). The composition folds the modules in their list's order: a
 * module may depend only on modules listed before it (checked at boot and by a test).
 */
export interface DomainModule<N extends string, S extends object, D extends readonly AnyModule[]> {
  /** The folder under `src/`. */
  readonly name: N;
  /** The modules whose services this one's factory receives (and whose entities its own may reference). */
  readonly dependsOn: D;
  readonly entities: readonly EntityClass<any>[];
  /**
   * Tables its migrations create that no entity maps (written by SQL, e.g. triggers): the schema
   * generator leaves them alone, so a new migration never drops them.
   */
  readonly unmappedTables?: readonly string[];
  /** Its GraphQL resolver classes: each is built with this module's services (never another's). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly resolvers: readonly Function[];
  /** Its slice of the configuration (`src/<domain>/settings.ts`), validated at boot with the others. */
  readonly settings?: SettingsSlice;
  /** Its schema migrations; all modules' run in the order of their names (timestamps). */
  readonly migrations?: readonly MigrationObject[];
  /** Its services, from the platform and the services of the modules it depends on. */
  readonly services: (platform: Platform, deps: DependencyServices<D>) => S;
  /** Its background jobs (their payload types declared on `ServiceJobs` from the module's folder). */
  readonly jobs?: ModuleJobs<S>;
  /** What it does when another module's domain events happen (delivered after commit, retried on their own). */
  readonly subscribers?: (
    services: S,
    deps: DependencyServices<D>,
    platform: Platform,
  ) => readonly EventSubscriber<DomainEventMap>[];
  /** Its plain HTTP endpoints (`HttpMount`), from its services and the platform. */
  readonly http?: (services: S, platform: Platform) => readonly HttpMount[];
  /** Released when the app closes (after the job queue stopped). */
  readonly close?: (services: S) => Promise<void>;
}

/** Declares a module; its type carries its name, services and dependencies for the modules above it. */
export function defineModule<N extends string, S extends object, const D extends readonly AnyModule[] = []>(
  module: DomainModule<N, S, D>,
): DomainModule<N, S, D> {
  return module;
}
