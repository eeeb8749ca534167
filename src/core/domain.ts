import type { EntityClass } from '@mikro-orm/core';

/**
 * What a domain contributes to the composition root (`src/domains.ts`): its entities (the ORM's
 * metadata) and its GraphQL resolver classes (the schema). Its services are wired in
 * `src/services.ts`, its migrations are listed in `src/migrations/index.ts` (one ordered list across
 * domains) and its REST entries in `rest-compat/routes/index.ts` (REST is an edge, not a domain).
 */
export interface DomainManifest {
  /** The folder under `src/`. */
  readonly name: string;
  readonly entities: readonly EntityClass<any>[];
  /**
   * Tables its migrations create that no entity maps (written by SQL, e.g. triggers): the schema
   * generator leaves them alone, so a new migration never drops them.
   */
  readonly unmappedTables?: readonly string[];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly resolvers: readonly Function[];
}
