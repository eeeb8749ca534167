/** URLSearchParams that remember which names a route read (its variables, cache rule and shape). */
export class ReadTrackingParams extends URLSearchParams {
  readonly read = new Set<string>();
  /** Something iterated over every parameter. */
  readsAll = false;

  override get(name: string) {
    this.read.add(name);
    return super.get(name);
  }
  override getAll(name: string) {
    this.read.add(name);
    return super.getAll(name);
  }
  override has(name: string, value?: string) {
    this.read.add(name);
    return value === undefined ? super.has(name) : super.has(name, value);
  }
  override entries() {
    this.readsAll = true;
    return super.entries();
  }
  override keys() {
    this.readsAll = true;
    return super.keys();
  }
  override values() {
    this.readsAll = true;
    return super.values();
  }
  override forEach(callback: (value: string, key: string, parent: URLSearchParams) => void, thisArg?: unknown) {
    this.readsAll = true;
    super.forEach(callback, thisArg);
  }
  override [Symbol.iterator]() {
    this.readsAll = true;
    return super[Symbol.iterator]();
  }
  override toString() {
    this.readsAll = true;
    return super.toString();
  }
}

/**
 * Cache keys built from what an answer depends on: API version, the origin its absolute URLs use
 * (scheme included: SITE_URL, else the checked Host, never the authority of an absolute-form
 * request target; see `requestUrlOf`), path, request language, and the query parameters, sorted
 * (next/previous links sort them too, like DRF). A parameter no execution of the route has read is
 * junk: a request carrying one is answered but never cached, so junk cannot grow the cache.
 */
export class RestCacheKeys {
  /** Per compiled route: the parameter names its executions read. */
  private readonly known = new Map<object, { names: Set<string>; all: boolean }>();

  /** The key to look up, or null while the request holds parameters the route is not known to read. */
  lookupKey(route: object, url: URL, locale: string): string | null {
    const known = this.known.get(route);
    if (!known) return null;
    if (!known.all) for (const name of url.searchParams.keys()) if (!known.names.has(name)) return null;
    return this.key(url, locale);
  }

  /** After an execution: learns what the route read; the key to store under, or null for junk. */
  storeKey(route: object, url: URL, locale: string, query: ReadTrackingParams): string | null {
    let known = this.known.get(route);
    if (!known) this.known.set(route, (known = { names: new Set(), all: false }));
    for (const name of query.read) known.names.add(name);
    known.all ||= query.readsAll;
    return this.lookupKey(route, url, locale);
  }

  private key(url: URL, locale: string): string {
    const params = new URLSearchParams(url.search);
    params.sort();
    return `${url.origin} ${url.pathname.replace(/\/{2,}/g, '/')} ${locale} ${params.toString()}`;
  }
}
