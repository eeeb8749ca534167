import DataLoader from 'dataloader';
import type { RequestContext } from './context.js';

/** Declares a request-scoped DataLoader; `ctx.loaders.get(def)` creates it on first use. */
export interface LoaderDefinition<K, V, C = K> {
  readonly name: string;
  readonly batch: (ctx: RequestContext, keys: readonly K[]) => Promise<ArrayLike<V | Error>>;
  readonly options?: DataLoader.Options<K, V, C>;
}

export function defineLoader<K, V, C = K>(
  name: string,
  batch: (ctx: RequestContext, keys: readonly K[]) => Promise<ArrayLike<V | Error>>,
  options?: DataLoader.Options<K, V, C>,
): LoaderDefinition<K, V, C> {
  return { name, batch, options };
}

/**
 * A loader one module declares and a module above it implements, so that the lower one reads what
 * the upper one knows without importing it (e.g. accounts' statistics, computed over the
 * catalogue's tables). The implementation is set once, when the implementing module is loaded;
 * using the loader before that is a programming error.
 */
export interface LoaderPort<K, V, C = K> extends LoaderDefinition<K, V, C> {
  implement(batch: (ctx: RequestContext, keys: readonly K[]) => Promise<ArrayLike<V | Error>>): void;
}

export function defineLoaderPort<K, V, C = K>(
  name: string,
  options?: DataLoader.Options<K, V, C>,
): LoaderPort<K, V, C> {
  let implementation: ((ctx: RequestContext, keys: readonly K[]) => Promise<ArrayLike<V | Error>>) | null = null;
  return {
    name,
    options,
    batch: (ctx, keys) => {
      if (!implementation) throw new Error(`loader ${name} is declared but not implemented (its module is not loaded)`);
      return implementation(ctx, keys);
    },
    implement(batch) {
      if (implementation && implementation !== batch) throw new Error(`loader ${name} is implemented twice`);
      implementation = batch;
    },
  };
}

/** Orders batch results by key; missing keys get `fallback`. */
export function byKeys<K, V>(keys: readonly K[], rows: Iterable<[K, V]>, fallback: V): V[] {
  const map = new Map(rows);
  return keys.map((key) => (map.has(key) ? (map.get(key) as V) : fallback));
}

export class Loaders {
  private readonly instances = new Map<
    LoaderDefinition<unknown, unknown, unknown>,
    DataLoader<unknown, unknown, unknown>
  >();

  constructor(private readonly context: () => RequestContext) {}

  get<K, V, C = K>(definition: LoaderDefinition<K, V, C>): DataLoader<K, V, C> {
    const key = definition as unknown as LoaderDefinition<unknown, unknown, unknown>;
    let loader = this.instances.get(key) as DataLoader<K, V, C> | undefined;
    if (!loader) {
      loader = new DataLoader<K, V, C>((keys) => definition.batch(this.context(), keys), definition.options);
      this.instances.set(key, loader as unknown as DataLoader<unknown, unknown, unknown>);
    }
    return loader;
  }
}
