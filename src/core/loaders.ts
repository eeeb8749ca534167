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
