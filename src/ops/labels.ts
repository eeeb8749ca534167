import { HistogramSeries } from './series.js';

/**
 * Bounded labels for request metrics: a REST path is labelled by its route template
 * (`/api/v4/addons/addon/:addon/`), never by the raw path with its ids and slugs; a GraphQL
 * request by its operation name: the server's own operations always, others within a fixed number
 * of names that expire when unused. Paths and names outside them share one label each, so no
 * client can grow the number of series.
 */

/**
 * What a route template is made of: a REST route's path (relative to `/api/<version>`, `<name>`
 * marking a path variable) and the API versions that serve it. Any entry of the route table fits.
 */
export interface RouteTemplateSource {
  path: string;
  versions: readonly string[];
  /** The route's GraphQL document: its operation's name is a known operation name. */
  document?: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const OTHER_METHOD = 'other';

/** Shown for paths no route matches, and GraphQL requests without a known operation name. */
export const UNMATCHED = '(unmatched)';
export const OTHER_OPERATION = '(other)';

/** One label value (a route template, an operation name) and its series per method and status. */
export class Label {
  private readonly series = new Map<number, HistogramSeries>();

  constructor(
    private readonly name: string,
    readonly value: string,
    private readonly bounds: readonly number[],
  ) {}

  /** The series of one method and status, made on first use (keyed by a number: nothing allocated per request). */
  seriesOf(method: string, status: number): HistogramSeries {
    const index = methodIndex(method);
    const code = status >= 100 && status <= 999 ? status : 0;
    const key = index * 1000 + code;
    let series = this.series.get(key);
    if (!series) {
      const labels = { [this.name]: this.value, method: METHODS[index] ?? OTHER_METHOD, status: String(code) };
      series = new HistogramSeries(labels, this.bounds);
      this.series.set(key, series);
    }
    return series;
  }

  all(): Iterable<HistogramSeries> {
    return this.series.values();
  }
}

function methodIndex(method: string): number {
  const index = METHODS.indexOf(method);
  return index === -1 ? METHODS.length : index;
}

interface Template {
  pattern: RegExp;
  label: Label;
}

/** Distinct raw paths whose label is remembered; past it the memo starts over. */
const MEMO_SIZE = 10_000;

/** Route templates of every path the app serves. */
export class RouteLabels {
  /** REST templates per `<version> <first segment>`, e.g. `v4 addons`. */
  private readonly rest = new Map<string, Template[]>();
  private readonly labels = new Map<string, Label>();
  private readonly memo = new Map<string, Label>();

  constructor(
    routes: readonly RouteTemplateSource[],
    private readonly bounds: readonly number[],
  ) {
    for (const route of routes) {
      const segments = route.path.split('/');
      const template = segments.map((s) => s.replace(/^<([a-z_]+)>$/i, ':$1')).join('/');
      const source = segments.map((s) => (/^<[a-z_]+>$/i.test(s) ? '[^/]+' : escapeRegExp(s))).join('/');
      for (const version of route.versions) {
        const key = `${version} ${segments[1] ?? ''}`;
        const label = this.label(`/api/${version}${template}`);
        let list = this.rest.get(key);
        if (!list) this.rest.set(key, (list = []));
        if (!list.some((t) => t.label === label)) list.push({ pattern: new RegExp(`^${source}$`), label });
      }
    }
  }

  /** The label of a request's path (the URL without its query string). */
  of(rawPath: string): Label {
    let label = this.memo.get(rawPath);
    if (label) return label;
    label = this.classify(rawPath.replace(/\/{2,}/g, '/'));
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(rawPath, label);
    return label;
  }

  all(): Iterable<Label> {
    return this.labels.values();
  }

  private classify(path: string): Label {
    const api = /^\/api\/(v3|v4|v5)(\/[^/]*)(.*)$/.exec(path);
    if (api) {
      const rest = api[2] + api[3];
      for (const template of this.rest.get(`${api[1]} ${api[2].slice(1)}`) ?? []) {
        if (template.pattern.test(rest)) return template.label;
      }
      return this.label(`/api/${UNMATCHED}`);
    }
    if (path.startsWith('/api/')) return this.label(`/api/${UNMATCHED}`);
    switch (path) {
      case '/healthz':
      case '/readyz':
      case '/metrics':
      case '/graphql':
        return this.label(path);
    }
    if (path.startsWith('/graphql/')) return this.label('/graphql/*');
    if (path.startsWith('/user-media/')) return this.label('/user-media/*');
    if (path.startsWith('/downloads/file/')) return this.label('/downloads/file/:id/:name');
    if (path === '/update/' || path === '/update' || path === '/update/VersionCheck.php') return this.label('/update/');
    if (path.endsWith('/updateinfo/')) return this.label('/:locale/:app/addon/:addon/versions/:version/updateinfo/');
    if (/^\/developers\/upload\/[^/]+\/json$/.test(path)) return this.label('/developers/upload/:uuid/json');
    if (/^\/developers\/upload\/[^/]+$/.test(path)) return this.label('/developers/upload/:uuid');
    return this.label(UNMATCHED);
  }

  private label(value: string): Label {
    let label = this.labels.get(value);
    if (!label) this.labels.set(value, (label = new Label('route', value, this.bounds)));
    return label;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Names of operations the server does not know that may hold labels at once. */
export const MAX_OPERATION_NAMES = 100;
/** An unknown operation's label unused this long gives its place to a new name. */
export const OPERATION_LABEL_IDLE_MS = 15 * 60_000;
/** Only this much of a document is looked at for its operation's name. */
const NAME_SCAN_CHARS = 2_000;
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
/** An operation's name in a trusted document (the route table's, read once at boot). */
const DOCUMENT_OPERATION = /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/g;

interface UnknownOperation {
  label: Label;
  lastUsed: number;
}

/**
 * GraphQL operation names. Known operations (the named documents of the REST route table) always
 * have a label of their own, whatever other clients send. Any other name answered with 200 takes
 * one of MAX_OPERATION_NAMES places (a name sent with a refused document takes none); when all are
 * taken, the place of the least recently used name idle for OPERATION_LABEL_IDLE_MS (its series
 * leave /metrics), else the name shares OTHER_OPERATION. So made-up names never hide a known
 * operation, and a burst of them holds its places for 15 minutes, not until a restart (and
 * replaces at most MAX_OPERATION_NAMES labels per 15 minutes). Anonymous operations and anything
 * that is not a GraphQL name share OTHER_OPERATION.
 */
export class OperationLabels {
  private readonly known = new Map<string, Label>();
  private readonly unknown = new Map<string, UnknownOperation>();
  private readonly other: Label;
  /** No unknown name is idle long enough before this time (see expireOne). */
  private noneIdleBefore = 0;

  constructor(
    private readonly bounds: readonly number[],
    routes: readonly RouteTemplateSource[] = [],
    private readonly clock: () => number = Date.now,
  ) {
    this.other = new Label('operation', OTHER_OPERATION, bounds);
    for (const route of routes) {
      for (const [, name] of route.document?.matchAll(DOCUMENT_OPERATION) ?? []) {
        if (!this.known.has(name)) this.known.set(name, new Label('operation', name, bounds));
      }
    }
  }

  of(name: string | null, status: number): Label {
    if (name === null) return this.other;
    const known = this.known.get(name);
    if (known) return known;
    const now = this.clock();
    const seen = this.unknown.get(name);
    if (seen) {
      seen.lastUsed = now;
      return seen.label;
    }
    if (status !== 200 || !GRAPHQL_NAME.test(name)) return this.other;
    if (this.unknown.size >= MAX_OPERATION_NAMES && !this.expireOne(now)) return this.other;
    const label = new Label('operation', name, this.bounds);
    this.unknown.set(name, { label, lastUsed: now });
    return label;
  }

  *all(): Iterable<Label> {
    yield this.other;
    yield* this.known.values();
    for (const { label } of this.unknown.values()) yield label;
  }

  /**
   * Drops the least recently used unknown name idle for OPERATION_LABEL_IDLE_MS; false if none is.
   * A scan that finds none also finds when the first may be (uses only make names younger), so a
   * stream of new names costs one comparison each until then.
   */
  private expireOne(now: number): boolean {
    if (now < this.noneIdleBefore) return false;
    let oldestName: string | null = null;
    let oldestUse = Infinity;
    for (const [name, seen] of this.unknown) {
      if (seen.lastUsed < oldestUse) {
        oldestName = name;
        oldestUse = seen.lastUsed;
      }
    }
    if (oldestName === null || now - oldestUse < OPERATION_LABEL_IDLE_MS) {
      this.noneIdleBefore = oldestUse + OPERATION_LABEL_IDLE_MS;
      return false;
    }
    this.unknown.delete(oldestName);
    return true;
  }
}

/**
 * The operation a GraphQL request names: `operationName` (body, or query string for GET), else
 * the name of the document's operation when the document starts with one. A linear scan of at
 * most NAME_SCAN_CHARS characters, no parse.
 */
export function operationNameOf(params: unknown): string | null {
  if (!params || typeof params !== 'object') return null;
  const { operationName, query } = params as { operationName?: unknown; query?: unknown };
  if (typeof operationName === 'string' && operationName) return operationName.slice(0, 100);
  return typeof query === 'string' ? documentOperationName(query) : null;
}

export function documentOperationName(document: string): string | null {
  const end = Math.min(document.length, NAME_SCAN_CHARS);
  let i = skipIgnored(document, 0, end);
  const keyword = readName(document, i, end);
  if (keyword !== 'query' && keyword !== 'mutation' && keyword !== 'subscription') return null;
  i = skipIgnored(document, i + keyword.length, end);
  return readName(document, i, end);
}

/** Whitespace, commas, the byte order mark and `#` comments (GraphQL's ignored tokens). */
function skipIgnored(text: string, from: number, end: number): number {
  let i = from;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x2c || c === 0xfeff) i++;
    else if (c === 0x23) {
      while (i < end && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
    } else break;
  }
  return i;
}

function readName(text: string, from: number, end: number): string | null {
  let i = from;
  while (i < end && isNameChar(text.charCodeAt(i), i === from)) i++;
  return i > from ? text.slice(from, i) : null;
}

function isNameChar(c: number, first: boolean): boolean {
  return c === 0x5f || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (!first && c >= 0x30 && c <= 0x39);
}
