/**
 * Issue 9's acceptance test: generated hostile input against every REST route (from the route table)
 * and every GraphQL root field (from the schema), over raw sockets, so truncated and malformed
 * requests reach the server as sent. Every answer must be below 500, carry no stack trace, and keep
 * its endpoint's error shape; afterwards the process still answers /healthz.
 *
 * Short, seeded run by default; `npm run fuzz` (or FUZZ_RUNS=…, FUZZ_SEED=…) for a long one.
 * Violations are collected per route/operation and symptom (shortest request kept), so one run
 * lists every distinct problem; FUZZ_REPORT=<file> also writes them as JSON.
 */
import { gate } from '../rest-compat/gates.js';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { buildSchema } from 'graphql';
import { User } from '../src/accounts/user.entity.js';
import { AddonStatus, App, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Preview } from '../src/catalogue/preview.entity.js';
import { AddonFile, Version } from '../src/catalogue/version.entity.js';
import { routes as routeTable } from '../rest-compat/routes/index.js';
import type { ApiVersion } from '../rest-compat/gates.js';
import type { RestRequest, RouteDefinition as VersionedRoute } from '../rest-compat/route.js';

/** Routes of every version, each only ever called with one it declares. */
type RouteDefinition = VersionedRoute<any, ApiVersion>;
/**
 * The one route whose 500 is its purpose (the original's `services/500/` debugging helper, checked
 * in test/misc-v5.test.ts: the body carries no trace) is left out; every other answer must be < 500.
 */
const DELIBERATE_500 = '/services/500/';
const routes = (routeTable as readonly RouteDefinition[]).filter((route) => route.path !== DELIBERATE_500);
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import {
  authorization,
  bodySpec,
  credentialSpec,
  deepJsonText,
  describeCredential,
  extraHeaders,
  HOSTILE_HOSTS,
  MB,
  pathSegment,
  queryString,
  toJsonText,
  type BodySpec,
  type CredentialSpec,
  type Identities,
} from './helpers/fuzz-arbitraries.js';
import {
  commonProblems,
  describeOutcome,
  graphqlProblems,
  parserRefusalProblems,
  restErrorProblem,
  short,
  ViolationLog,
  type RestErrorStyle,
} from './helpers/fuzz-checks.js';
import {
  operationCase,
  rootOperations,
  type GraphqlCase,
  type KnownValues,
  type RootOperation,
} from './helpers/fuzz-graphql.js';
import {
  buildRequest,
  multipartBody,
  percentEncode,
  rawRequest,
  type RawOutcome,
  type RequestSpec,
} from './helpers/fuzz-http.js';
import { conflictBursts, type ConflictKind } from './helpers/fuzz-conflicts.js';
import { png } from './helpers/images.js';
import { inconsistentAddons } from './helpers/ratings.js';
import { extension } from './helpers/signing.js';

const SEED = Number(process.env.FUZZ_SEED ?? 90_909);
/** Generated requests per REST route and version, and per GraphQL root field. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const REQUEST_TIMEOUT_MS = Number(process.env.FUZZ_REQUEST_TIMEOUT_MS ?? 10_000);
const TEST_TIMEOUT_MS = Math.max(120_000, RUNS * 10_000);
const MAIL_SECRET = 'fuzz-inbound-secret-0123456789';

let t: TestApp;
let server: Server;
let port: number;
const log = new ViolationLog();
const ids: Identities = { sessions: {}, apiKeys: {} };
/** The fixture users by role; tokens are re-issued before every target (fuzzed mutations log out, revoke keys). */
const users: Record<string, number> = {};
const USER_ROLES = ['owner', 'other', 'admin', 'reviewer'];
let known: Record<string, (string | number)[]> = {};
let files: Buffer[] = [];
const processErrors: string[] = [];
/** Milliseconds per target (FUZZ_TIMINGS=1 prints the slowest). */
const timings = new Map<string, number>();
const slowRequests: string[] = [];
const onProcessError = (error: unknown) => processErrors.push(String((error as Error)?.stack ?? error));

/** Stable per-target seeds: adding a route does not change the requests of the others. */
function seedFor(label: string): number {
  let hash = 2166136261;
  for (const char of label) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return (hash ^ SEED) | 0;
}

beforeAll(async () => {
  const booting = Date.now();
  process.on('uncaughtException', onProcessError);
  process.on('unhandledRejection', onProcessError);
  t = await startTestApp({
    env: {
      JOB_WORKERS: 'false',
      SUPER_CREATE_ENABLED: 'true',
      INBOUND_EMAIL_SECRET_KEY: MAIL_SECRET,
      INBOUND_EMAIL_VALIDATION_KEY: 'fuzz-validation-key',
      INBOUND_EMAIL_ALLOWED_IPS: '127.0.0.1,::1,::ffff:127.0.0.1',
      MAX_UPLOAD_MB: '1',
    },
  });
  server = await t.app.listen(0, '127.0.0.1');
  port = (server.address() as AddressInfo).port;
  timings.set('(boot)', Date.now() - booting);

  const owner = await t.createUser({ username: 'fuzz-owner', session: true, 'api-key': true });
  const other = await t.createUser({ username: 'fuzz-other', session: true, 'api-key': true });
  const admin = await t.createUser({ group: ['Admins'], session: true, 'api-key': true });
  const reviewer = await t.createUser({
    permission: ['Addons:Review', 'Addons:ReviewUnlisted', 'Ratings:Moderate', 'Collections:Edit'],
    session: true,
    'api-key': true,
  });
  Object.assign(users, { owner: owner.id, other: other.id, admin: admin.id, reviewer: reviewer.id });
  await refreshIdentities();

  const em = t.em();
  const addon = await createAddon(em, {
    slug: 'fuzz-addon',
    guid: 'fuzz-addon@example.com',
    authors: [{ id: owner.id }],
    versions: [{ version: '1.0' }, { version: '1.1' }, { version: '2.0', channel: Channel.UNLISTED }],
    previews: 1,
    featured: [{ app: App.BROWSER }],
  });
  await createAddon(em, {
    slug: 'fuzz-nominated',
    status: AddonStatus.NOMINATED,
    authors: [{ id: owner.id }],
    versions: [{ version: '0.1', fileStatus: FileStatus.AWAITING_REVIEW }],
  });
  const versions = await em.find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
  const addonFiles = await em.find(AddonFile, { version: { addon: addon.id } }, { orderBy: { id: 'asc' } });
  const previews = await em.find(Preview, { addon: addon.id });

  const session = (role: string) => `Bearer ${ids.sessions[role]}`;
  const json = async (method: 'post' | 'put', path: string, role: string, body: object) => {
    const res = await t.http[method](path).set('Authorization', session(role)).send(body);
    return res.status < 300 ? (res.body as Record<string, unknown>) : {};
  };
  await json('post', `/api/v4/accounts/account/${owner.id}/collections/`, 'owner', { name: 'Fuzz', slug: 'fuzz-coll' });
  await json('post', `/api/v4/accounts/account/${owner.id}/collections/fuzz-coll/addons/`, 'owner', {
    addon: addon.id,
    notes: 'fuzzing',
  });
  const rating = await json('post', '/api/v4/ratings/rating/', 'other', { addon: addon.id, score: 4, body: 'Nice.' });
  const reply = rating.id
    ? await json('post', `/api/v4/ratings/rating/${rating.id}/reply/`, 'owner', { body: 'Thanks.' })
    : {};
  const note = await json('post', `/api/v4/addons/addon/${addon.id}/versions/${versions[1].id}/reviewnotes/`, 'owner', {
    comments: 'A note.',
  });
  const xpi = await extension({ id: 'fuzz-upload@example.com', version: '1.0' });
  const upload = await t.http
    .put('/api/v4/addons/fuzz-upload@example.com/versions/1.0/')
    .set('Authorization', authorization({ kind: 'jwt', who: 'owner' }, ids)!)
    .attach('upload', xpi, 'fuzz.xpi');
  const uploadUuid = typeof upload.body?.pk === 'string' ? upload.body.pk : '00000000000000000000000000000000';

  files = [xpi, await png(64, 64), Buffer.from('PK\u0003\u0004 not a zip'), Buffer.alloc(0), Buffer.alloc(1.5 * MB, 7)];
  const versionIds = versions.map((v) => v.id);
  known = {
    user: [owner.id, 'fuzz-owner', other.id, admin.id],
    userId: [owner.id, other.id],
    addon: [addon.id, 'fuzz-addon', 'fuzz-addon@example.com', 'fuzz-nominated'],
    id: [addon.id, 'fuzz-addon', ...[rating.id, reply.id].filter((x): x is number => typeof x === 'number')],
    version: [...versionIds, '1.0', '1.1'],
    versionId: versionIds,
    guid: ['fuzz-upload@example.com', 'fuzz-addon@example.com'],
    uuid: [uploadUuid],
    file: addonFiles.map((f) => f.id),
    name: addonFiles.map((f) => f.filename),
    slug: ['fuzz-coll'],
    note: typeof note.id === 'number' ? [note.id] : [],
    previewId: previews.map((p) => p.id),
    showFlagsFor: [owner.id],
    showPermissionsFor: [owner.id],
    secretKey: [MAIL_SECRET],
    channel: ['listed', 'unlisted'],
  };
  timings.set('(boot and fixtures)', Date.now() - booting);
}, 300_000);

let testStarted = 0;
beforeEach(() => {
  testStarted = Date.now();
});
afterEach(() => {
  timings.set(expect.getState().currentTestName ?? '?', Date.now() - testStarted);
});

afterAll(async () => {
  process.off('uncaughtException', onProcessError);
  process.off('unhandledRejection', onProcessError);
  const all = log.all();
  if (all.length) {
    const lines = all.map(
      (v) => `- [${v.target}] ${v.symptom} (x${v.count})\n    request: ${v.request}\n    answer:  ${v.answer}`,
    );
    console.log(`fuzz (seed ${SEED}, ${RUNS} runs): ${all.length} distinct problems\n${lines.join('\n')}`);
  }
  if (process.env.FUZZ_REPORT) writeFileSync(process.env.FUZZ_REPORT, JSON.stringify(all, null, 2));
  if (server) {
    // Connections the fuzzing left hanging (unanswered requests) must not hold the shutdown.
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeAllConnections();
    await closed;
  }
  if (process.env.FUZZ_TIMINGS) {
    const slowest = [...timings].sort((a, b) => b[1] - a[1]).slice(0, 15);
    console.log(`requests over 1 s:\n${slowRequests.join('\n')}`);
    console.log(`slowest targets:\n${slowest.map(([label, ms]) => `  ${ms} ms  ${label}`).join('\n')}`);
  }
  const closing = Date.now();
  await t?.close();
  if (process.env.FUZZ_TIMINGS) console.log(`app closed in ${Date.now() - closing} ms`);
}, 60_000);

/** New sessions and API keys for the fixture users that still exist. */
async function refreshIdentities(): Promise<void> {
  const em = t.em();
  for (const role of USER_ROLES) {
    const user = await em.findOne(User, { id: users[role] });
    if (!user || user.deleted) {
      delete ids.sessions[role];
      delete ids.apiKeys[role];
      continue;
    }
    if (!user.readDevAgreement) {
      user.readDevAgreement = new Date() as never;
      await em.flush();
    }
    ids.sessions[role] = (await t.app.services.sessions.create(em, user)).token;
    const key = await t.app.services.apiKeys.issue(em, user);
    ids.apiKeys[role] = { key: key.key, secret: key.secret };
  }
}

async function resetSite(): Promise<void> {
  const em = t.em();
  if ((await t.app.services.site.status(em)).readOnly) await t.app.services.site.update(em, { readOnly: false });
}

/** Node's own refusal (no route involved): an empty 400/431/413 the HTTP parser wrote. */
function isParserRefusal(outcome: RawOutcome): boolean {
  if (outcome.kind !== 'answer') return false;
  const { status, headers, body } = outcome.response;
  return [400, 413, 414, 431].includes(status) && !headers['content-type'] && body.length === 0;
}

async function isMaintenance(outcome: RawOutcome): Promise<boolean> {
  if (outcome.kind !== 'answer' || outcome.response.status !== 503) return false;
  return (await t.app.services.site.status(t.em())).readOnly;
}

function describeRequest(spec: RequestSpec, credential: CredentialSpec | null, bodyKind?: string): string {
  const body = spec.body === undefined ? '' : Buffer.isBuffer(spec.body) ? spec.body.toString('utf8') : spec.body;
  const headers = (spec.headers ?? [])
    .filter(([name]) => !/^(content-length|connection)$/i.test(name) && !(credential && /^authorization$/i.test(name)))
    .map(([name, value]) => `${name}: ${short(value, 60)}`)
    .join('; ');
  return [
    `${spec.method} ${short(spec.target, 160)}`,
    credential ? describeCredential(credential) : '',
    headers,
    body ? `${bodyKind ?? 'body'} (${body.length} chars): ${short(body, 200)}` : '',
  ]
    .filter(Boolean)
    .join(' | ');
}

/** Sends one request and records what is wrong with the answer under `target`. */
async function exchange(
  target: string,
  spec: RequestSpec,
  check: (outcome: RawOutcome & { kind: 'answer' }) => string[],
  description: string,
  options: { halfClose?: boolean; answerRequired?: boolean } = {},
): Promise<RawOutcome> {
  const bytes = buildRequest(spec);
  const outcome = await rawRequest(port, bytes, { timeoutMs: REQUEST_TIMEOUT_MS, halfClose: options.halfClose });
  const ms = outcome.kind === 'answer' ? outcome.response.ms : outcome.ms;
  if (process.env.FUZZ_TIMINGS && ms > 1000) slowRequests.push(`${ms} ms  ${target}: ${description.slice(0, 160)}`);
  if (outcome.kind !== 'answer' && options.answerRequired === false) return outcome;
  if (await isMaintenance(outcome)) return outcome;
  const answer = describeOutcome(outcome);
  if (isParserRefusal(outcome)) {
    const status = outcome.kind === 'answer' ? outcome.response.status : 0;
    log.add('HTTP parser', `refusal ${status} without a JSON body`, description, answer);
    return outcome;
  }
  const requestText = bytes.toString('utf8');
  const problems = [...commonProblems(outcome, requestText), ...(outcome.kind === 'answer' ? check(outcome) : [])];
  for (const problem of new Set(problems)) log.add(target, problem, description, answer);
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// REST: every route of the table, every version it serves
// ---------------------------------------------------------------------------------------------

const paramNames = (route: RouteDefinition) => [...route.path.matchAll(/<([a-z_]+)>/gi)].map((m) => m[1]);

/** The body fields and query parameters a route's `variables` reads, found by running it on recording proxies. */
function probeRoute(route: RouteDefinition, version: ApiVersion): { fields: string[]; query: string[] } {
  const fields = new Set<string>();
  const query = new Set<string>();
  class RecordingParams extends URLSearchParams {
    override get(name: string) {
      query.add(name);
      return super.get(name);
    }
    override getAll(name: string) {
      query.add(name);
      return super.getAll(name);
    }
    override has(name: string, value?: string) {
      query.add(name);
      return value === undefined ? super.has(name) : super.has(name, value);
    }
  }
  for (const answer of [undefined, 'x', 1, ['x'], { 'en-US': 'x' }]) {
    const body = new Proxy(
      {},
      {
        get: (_target, key) => {
          if (typeof key === 'string') fields.add(key);
          return answer;
        },
        has: (_target, key) => {
          if (typeof key === 'string') fields.add(key);
          return answer !== undefined;
        },
      },
    );
    const request: RestRequest = {
      version,
      params: Object.fromEntries(paramNames(route).map((name) => [name, '1'])),
      query: new RecordingParams(),
      body,
      locale: 'en-US',
      gate: (name) => gate(version, name),
      url: new URL('http://127.0.0.1/'),
      cookie: () => null,
    };
    try {
      route.variables?.(request);
    } catch {
      // Validation of the probe values: the names read so far are enough.
    }
  }
  for (const name of ['then', 'toJSON', 'constructor', 'length']) fields.delete(name);
  return { fields: [...fields], query: [...query] };
}

interface RestCase {
  method: string;
  segments: string[];
  pathVariant: string;
  query: string;
  body: BodySpec | null;
  credential: CredentialSpec;
  headers: [string, string][];
}

function restCase(route: RouteDefinition, version: ApiVersion): fc.Arbitrary<RestCase> {
  const { fields, query } = probeRoute(route, version);
  const fileField = fields.find((f) => /upload/i.test(f)) ?? 'upload';
  const body = bodySpec(fields, fileField);
  const writes = route.method !== 'GET' && route.method !== 'DELETE';
  return fc.record({
    method: fc.oneof(
      { arbitrary: fc.constant<string>(route.method), weight: 24 },
      { arbitrary: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE', 'FOO'), weight: 1 },
    ),
    segments: fc.tuple(...paramNames(route).map((name) => pathSegment((known[name] ?? []).map(String)))),
    pathVariant: fc.oneof(
      { arbitrary: fc.constant('as is'), weight: 12 },
      {
        arbitrary: fc.constantFrom('double slashes', 'no trailing slash', 'upper case', 'encoded slash', 'dot segment'),
        weight: 1,
      },
    ),
    query: queryString(query),
    body: writes ? body : fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: body, weight: 1 }),
    credential: credentialSpec(USER_ROLES),
    headers: extraHeaders,
  });
}

function restTarget(route: RouteDefinition, version: ApiVersion, c: RestCase): string {
  let i = 0;
  let path = route.path.replace(/<[a-z_]+>/gi, () => c.segments[i++]);
  if (c.pathVariant === 'double slashes') path = path.replace(/\//g, '//');
  if (c.pathVariant === 'no trailing slash') path = path.replace(/\/$/, '');
  if (c.pathVariant === 'upper case') path = path.toUpperCase();
  if (c.pathVariant === 'encoded slash') path = path.replace(/\/(?=[^/]*\/$)/, '%2F');
  if (c.pathVariant === 'dot segment') path = `/./${path.slice(1)}`;
  return `/api/${version}${path}${c.query}`;
}

const COMPILED = routes.map((route) => ({
  route,
  pattern: new RegExp(
    `^${route.path
      .split(/(<[a-z_]+>)/i)
      .map((part) => (/^<[a-z_]+>$/i.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
  ),
}));

/** The error styles of the routes a request lands on after URL normalisation (DRF when none). */
function stylesFor(method: string, target: string, version: ApiVersion): RestErrorStyle[] {
  let path: string;
  try {
    path = new URL(target, 'http://fuzz.test').pathname.replace(/\/{2,}/g, '/');
  } catch {
    return ['drf'];
  }
  const prefix = `/api/${version}`;
  if (!path.startsWith(prefix)) return ['drf'];
  const rest = path.slice(prefix.length);
  const matched = COMPILED.filter((c) => c.route.versions.includes(version) && c.pattern.test(rest));
  const sameMethod = matched.filter((c) => c.route.method === (method === 'HEAD' ? 'GET' : method));
  const styles = new Set((sameMethod.length ? sameMethod : matched).map((c) => c.route.errorStyle ?? 'drf'));
  return styles.size ? [...styles] : ['drf'];
}

async function sendRest(label: string, route: RouteDefinition, version: ApiVersion, c: RestCase): Promise<void> {
  const auth = authorization(c.credential, ids);
  const headers: [string, string][] = [...c.headers];
  if (auth !== null) headers.push(['Authorization', auth]);
  if (c.body?.contentType) headers.push(['Content-Type', c.body.contentType]);
  if (c.body?.headers) headers.push(...c.body.headers);
  const spec: RequestSpec = { method: c.method, target: restTarget(route, version, c), headers, body: c.body?.body };
  const styles = stylesFor(spec.method, spec.target, version);
  await exchange(
    label,
    spec,
    ({ response }) => {
      if (c.method === 'HEAD' || c.method === 'OPTIONS') return [];
      // Path variants (dot segments, odd parameters) can land on another route: its style applies.
      const problems = styles.map((style) => restErrorProblem(response, style));
      return problems.includes(null) ? [] : [problems[0]!];
    },
    describeRequest(spec, c.credential, c.body?.kind),
  );
}

// ---------------------------------------------------------------------------------------------
// GraphQL: every Query and Mutation root field
// ---------------------------------------------------------------------------------------------

function graphqlSpec(c: GraphqlCase): RequestSpec {
  const headers: [string, string][] = [];
  const auth = authorization(c.credential, ids);
  if (auth !== null) headers.push(['Authorization', auth]);
  const variablesText = toJsonText(c.variables);
  const operation = `{"query":${JSON.stringify(c.document)},"variables":${variablesText},"operationName":"Fuzz"}`;
  if (c.transport === 'get') {
    const target = `/graphql?query=${percentEncode(c.document)}&variables=${percentEncode(variablesText)}&operationName=Fuzz`;
    if (target.length < 12_000) {
      headers.push(['apollo-require-preflight', 'true']);
      return { method: 'GET', target, headers };
    }
  }
  if (c.transport === 'multipart' || c.transport === 'multipart-truncated') {
    const map = Object.fromEntries(c.uploads.map((name, i) => [String(i), [`variables.${name}`]]));
    const { contentType, body } = multipartBody(
      [
        { name: 'operations', data: operation },
        { name: 'map', data: JSON.stringify(map) },
        ...c.uploads.map((_, i) => ({
          name: String(i),
          filename: i === 0 ? 'fuzz.xpi' : 'fuzz.png',
          contentType: 'application/octet-stream',
          data: files[c.file],
        })),
      ],
      { truncate: c.transport === 'multipart-truncated' },
    );
    headers.push(['Content-Type', contentType], ['apollo-require-preflight', 'true']);
    return { method: 'POST', target: '/graphql', headers, body };
  }
  if (c.transport === 'post-form') {
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
    return { method: 'POST', target: '/graphql', headers, body: `query=${percentEncode(c.document)}` };
  }
  headers.push(['Content-Type', 'application/json']);
  return { method: 'POST', target: '/graphql', headers, body: operation };
}

async function sendGraphql(label: string, spec: RequestSpec, description: string): Promise<void> {
  await exchange(label, spec, ({ response }) => graphqlProblems(response), description);
}

/** Destructive targets run last, account deletion at the very end, so the others keep their fixtures. */
function phase(method: string, name: string): number {
  if (/account\/<user>\/$/.test(name) || name === 'Mutation.deleteUser') return 4;
  if (method === 'DELETE' || /^Mutation\.(delete|remove|logout|revoke|deny)/.test(name)) return 3;
  if (method !== 'GET' && method !== 'query') return 2;
  return 1;
}

type Target =
  | { kind: 'rest'; label: string; route: RouteDefinition; version: ApiVersion; phase: number }
  | { kind: 'graphql'; label: string; op: RootOperation; phase: number };

function targets(operations: RootOperation[]): Target[] {
  const rest: Target[] = routes.flatMap((route) =>
    route.versions.map((version): Target => ({
      kind: 'rest',
      label: `REST ${route.method} ${route.path} (${version})`,
      route,
      version,
      phase: phase(route.method, `${route.method} ${route.path}`),
    })),
  );
  const graphql: Target[] = operations.map((op) => ({
    kind: 'graphql',
    label: `GraphQL ${op.label}`,
    op,
    phase: phase(op.operation, op.label),
  }));
  return [...rest, ...graphql].sort((a, b) => a.phase - b.phase);
}

/**
 * The root fields as emitted in schema.graphql (kept equal to the code by test/schema.test.ts), so
 * there is one Jest test per field; each runs against the field of the live schema.
 */
const EMITTED_SCHEMA = buildSchema(readFileSync(new URL('../schema.graphql', import.meta.url), 'utf8'));
const TARGETS = targets(rootOperations(EMITTED_SCHEMA));

function liveOperation(op: RootOperation): RootOperation {
  const type = op.operation === 'query' ? t.app.schema.getQueryType() : t.app.schema.getMutationType();
  const field = type?.getFields()[op.field.name];
  return field ? { ...op, field } : op;
}

describe('fuzz: generated requests on every REST route and GraphQL root field', () => {
  it('covers every route of the table and every root field of the live schema', () => {
    const rest = TARGETS.filter((x) => x.kind === 'rest').length;
    expect(rest).toBe(routes.reduce((n, r) => n + r.versions.length, 0));
    const live = rootOperations(t.app.schema).map((op) => `GraphQL ${op.label}`);
    expect(
      TARGETS.filter((x) => x.kind === 'graphql')
        .map((x) => x.label)
        .sort(),
    ).toEqual(live.sort());
  });

  it.each(TARGETS.map((target) => [target.label, target] as const))(
    '%s',
    async (label, target) => {
      await refreshIdentities();
      if (target.kind === 'rest') {
        const cases = fc.sample(restCase(target.route, target.version), { seed: seedFor(label), numRuns: RUNS });
        for (const c of cases) await sendRest(label, target.route, target.version, c);
      } else {
        const op = liveOperation(target.op);
        const arbitrary = operationCase(op, known as KnownValues, credentialSpec(USER_ROLES), files.length);
        const cases = fc.sample(arbitrary, { seed: seedFor(label), numRuns: RUNS });
        for (const c of cases) {
          const spec = graphqlSpec(c);
          await sendGraphql(label, spec, describeRequest(spec, c.credential, `${c.transport}, ${c.variant}`));
          if (op.field.name === 'updateSiteStatus') await resetSite();
        }
      }
      expect(log.of(label).map((v) => `${v.symptom}: ${v.request} -> ${v.answer}`)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

// ---------------------------------------------------------------------------------------------
// Fixed hostile requests: what a generator rarely builds by chance
// ---------------------------------------------------------------------------------------------

/** Fixed cases are reported one by one: the target names the request (method, path, type, start of body). */
function fixedTarget(label: string, spec: RequestSpec): string {
  const type = spec.headers?.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const body = spec.body === undefined ? '' : Buffer.isBuffer(spec.body) ? spec.body.toString('utf8') : spec.body;
  const host = spec.headers?.find(([name]) => name.toLowerCase() === 'host')?.[1];
  return [
    `${label}: ${spec.method} ${short(spec.target.split('?')[0], 60)}`,
    host !== undefined ? `Host ${JSON.stringify(short(host, 20))}` : '',
    type ? `(${short(type, 50)})` : '',
    body ? short(body, 50) : '',
  ]
    .filter(Boolean)
    .join(' ');
}

const fixedRest = (label: string, spec: RequestSpec, style: RestErrorStyle = 'drf', options = {}) =>
  exchange(
    fixedTarget(label, spec),
    spec,
    ({ response }) => {
      const problem = restErrorProblem(response, style);
      return problem ? [problem] : [];
    },
    describeRequest(spec, null),
    options,
  );

const fixedGraphql = (label: string, spec: RequestSpec) =>
  exchange(fixedTarget(label, spec), spec, ({ response }) => graphqlProblems(response), describeRequest(spec, null));

const postGraphql = (body: string | Buffer, headers: [string, string][] = [['Content-Type', 'application/json']]) =>
  ({ method: 'POST', target: '/graphql', headers, body }) satisfies RequestSpec;

const expectNoProblems = (prefix: string) =>
  expect(
    log
      .all()
      .filter((v) => v.target.startsWith(prefix))
      .map((v) => `[${v.target}] ${v.symptom}: ${v.request} -> ${v.answer}`),
  ).toEqual([]);

describe('fuzz: hostile GraphQL documents and bodies', () => {
  const label = 'GraphQL fixed';
  it(
    'answers deep, wide, huge and malformed GraphQL requests with GraphQL errors',
    async () => {
      const send = (body: string | Buffer, headers?: [string, string][]) =>
        fixedGraphql(label, postGraphql(body, headers));
      const q = (query: string, variables?: string) =>
        `{"query":${JSON.stringify(query)}${variables ? `,"variables":${variables}` : ''}}`;
      // Nesting, breadth, size.
      await send(q('query{' + 'a{'.repeat(20_000) + '}'.repeat(20_001)));
      await send(q('query{' + 'a{'.repeat(20_000)));
      await send(
        q(`{ ${Array.from({ length: 10_000 }, (_, i) => `a${i}: siteStatus { readOnly notice }`).join(' ')} }`),
      );
      await send(
        q(
          `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: searchAddons(pageSize: 50) { items { id name authors { id } } }`).join(' ')} }`,
        ),
      );
      await send(
        q('{ __schema { types { fields { type { ' + 'ofType { '.repeat(60) + 'name' + ' }'.repeat(60) + ' } } } } }'),
      );
      await send(q('{ siteStatus { readOnly ' + '...F '.repeat(5000) + '} } fragment F on SiteStatus { readOnly }'));
      // List and object values nested in the document (issue 23, item 6b): refused before the
      // parser, which would overflow its stack (an answer naming the overflow is a problem too).
      const nested = (query: string) =>
        exchange(
          fixedTarget(label, postGraphql(q(query))),
          postGraphql(q(query)),
          ({ response }) => [
            ...graphqlProblems(response),
            ...(/call stack/i.test(response.text) ? ['stack overflow answered'] : []),
          ],
          describeRequest(postGraphql(q(query)), null),
        );
      for (const [open, close] of [
        ['[', ']'],
        ['{a:', '}'],
        ['[{a:', '}]'],
      ]) {
        for (const depth of [65, 1_000, 1_999, 50_000]) {
          const value = `${open.repeat(depth)}1${close.repeat(depth)}`;
          await nested(`{ __typename(arg: ${value}) }`);
          await nested(`query($v: [[Int]] = ${value}) { siteStatus { readOnly } }`);
          await nested(`{ siteStatus { readOnly @skip(if: ${value}) } }`);
        }
      }
      await nested(`{ __typename(arg: ${'['.repeat(1_999)}) }`); // never closed
      await send(q('query($v: [[String]]) { siteStatus { readOnly } }', deepJsonText(10_000, 'array')));
      await send(q('query($v: String) { siteStatus { readOnly } }', `{"v":${deepJsonText(10_000, 'object')}}`));
      await send(q('query($id: String!) { addon(id: $id) { id } }', JSON.stringify({ id: 'x'.repeat(2 * MB - 100) })));
      await send(q('query { addon(id: "' + 'y'.repeat(MB) + '") { id } }'));
      await send(q('{ addon(id: "\u0000") { id } }'));
      await send(q('query($id: String!) { addon(id: $id) { id } }', '{"id":"a\\u0000b"}'));
      await send(q('query($id: String!) { addon(id: $id) { id } }', '{"id":"\\ud800"}'));
      await send(q('{ addon(id: "\\ud800") { id } }'));
      await send(q('{ user(user: "' + '\\u0000'.repeat(10) + '") { id } }'));
      await send(q('{ searchAddons(filters: {q: "' + '(a+)+$'.repeat(200) + '"}) { count } }'));
      await send(q('{ rating(id: 99999999999999999999) { id } }'));
      await send(q('{ rating(id: 1e400) { id } }'));
      await send(q('{ zzUnknown }'));
      await send(q('{ siteStatus { readOnly } } { siteStatus { notice } }'));
      await send(q('query A { siteStatus { readOnly } } query A { siteStatus { readOnly } }'));
      await send(q('subscription { siteStatus { readOnly } }'));
      await send(q('{ siteStatus { readOnly @skip(if: "yes") } }'));
      // Arguments left out, lone surrogates into translated (JSON) columns, NUL in a JWT issuer.
      await send(q('mutation { receiveReviewMail(textBody: "x") { accepted } }'));
      const owner: [string, string][] = [
        ['Content-Type', 'application/json'],
        ['Authorization', `Bearer ${ids.sessions.owner}`],
      ];
      await send(q('mutation { updateAddonListing(addon: "fuzz-addon", input: {name: "\\ud800"}) { id } }'), owner);
      await send(
        q(
          'mutation($n: TranslatedInput) { updateAddonListing(addon: "fuzz-addon", input: {summary: $n}) { id } }',
          '{"n":{"en-US":"\\udc00x"}}',
        ),
        owner,
      );
      await send(
        q(
          `mutation { addCollectionAddon(user: "${users.owner}", slug: "fuzz-coll", addon: "fuzz-nominated", notes: "\\ud800") { __typename } }`,
        ),
        owner,
      );
      await send(q('{ me { id } }'), [
        ['Content-Type', 'application/json'],
        [
          'Authorization',
          authorization({ kind: 'forged-jwt', who: 'owner', variant: 'hostile-iss', hostile: 'a\u0000b' }, ids)!,
        ],
      ]);
      // Bodies Apollo has to refuse.
      for (const body of [
        '{"query":5}',
        '{"query":null}',
        '{}',
        '[]',
        'null',
        '"{ siteStatus { readOnly } }"',
        '{"query":"{ siteStatus { readOnly } }","variables":"[]"}',
        '{"query":"{ siteStatus { readOnly } }","variables":[1]}',
        '{"query":"{ siteStatus { readOnly } }","operationName":5}',
        '{"query":"{ siteStatus { readOnly } }","operationName":"Nope"}',
        '{"query":"{ siteStatus { readOnly } }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"x"}}}',
        '{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"' + 'a'.repeat(64) + '"}}}',
        JSON.stringify(Array.from({ length: 1000 }, () => ({ query: '{ siteStatus { readOnly } }' }))),
        '{"query":"{ siteStatus { readOnly } }"',
        '{"query":',
        '{',
        '\u0000',
        deepJsonText(10_000, 'object'),
        `{"query":"{ siteStatus { readOnly } }","pad":"${'p'.repeat(2 * MB + 10)}"}`,
      ]) {
        await send(body);
      }
      // Content types and encodings.
      const doc = q('{ siteStatus { readOnly } }');
      for (const type of [
        'text/plain',
        'application/graphql',
        'application/json; charset=utf-16',
        'application/json; charset=nope',
        'application/x-www-form-urlencoded',
        'application/xml',
        'multipart/form-data',
        'multipart/form-data; boundary=x',
      ]) {
        await send(doc, [['Content-Type', type]]);
      }
      await send(Buffer.from(doc), [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', 'gzip'],
      ]);
      await send(Buffer.from(doc), [
        ['Content-Type', 'application/json'],
        ['Content-Encoding', 'x-unknown'],
      ]);
      await fixedGraphql(label, { method: 'GET', target: '/graphql', headers: [['apollo-require-preflight', 'true']] });
      await fixedGraphql(label, {
        method: 'GET',
        target: '/graphql?query=%7B%20siteStatus%20%7B%20readOnly%20%7D%20%7D',
      });
      await fixedGraphql(label, {
        method: 'GET',
        target: '/graphql?query=mutation%7Blogout%7D',
        headers: [['apollo-require-preflight', 'true']],
      });
      await fixedGraphql(label, {
        method: 'GET',
        target: '/graphql?query=%E0%A4%A&variables=%00',
        headers: [['apollo-require-preflight', 'true']],
      });
      await fixedGraphql(label, {
        method: 'PUT',
        target: '/graphql',
        headers: [['Content-Type', 'application/json']],
        body: doc,
      });
      await fixedGraphql(label, { method: 'DELETE', target: '/graphql' });
      await fixedGraphql(label, {
        method: 'POST',
        target: '/graphql/nope',
        headers: [['Content-Type', 'application/json']],
        body: doc,
      });
      // Multipart: without the CSRF header, malformed parts, truncated.
      const operations = JSON.stringify({
        query: 'mutation($f: Upload!) { setAddonIcon(addon: "fuzz-addon", icon: $f) { id } }',
        variables: { f: null },
      });
      const icon = await png(32, 32);
      const parts = (map: string, data: Buffer | string = icon) => [
        { name: 'operations', data: operations },
        { name: 'map', data: map },
        { name: '0', filename: 'icon.png', contentType: 'image/png', data },
      ];
      const multipart = (
        body: ReturnType<typeof multipartBody>,
        extra: [string, string][] = [['apollo-require-preflight', 'true']],
      ) =>
        fixedGraphql(label, {
          method: 'POST',
          target: '/graphql',
          headers: [['Content-Type', body.contentType], ['Authorization', `Bearer ${ids.sessions.owner}`], ...extra],
          body: body.body,
        });
      await multipart(multipartBody(parts('{"0":["variables.f"]}')), []);
      await multipart(multipartBody(parts('{"0":["variables.f"]}'), { truncate: true }));
      await multipart(multipartBody(parts('{"0":["variables.f"]}'), { noFinalBoundary: true }));
      await multipart(multipartBody(parts('{"0":["variables.nope"]}')));
      await multipart(multipartBody(parts('{"0":["variables.f"],"1":["variables.f"]}')));
      await multipart(multipartBody(parts('not json')));
      await multipart(multipartBody(parts('{"0":"variables.f"}')));
      await multipart(multipartBody(parts('{"0":["variables.f.__proto__.x"]}')));
      await multipart(multipartBody(parts('{"0":["variables.f"]}', Buffer.alloc(2 * MB, 1))));
      await multipart(
        multipartBody([
          { name: 'map', data: '{}' },
          { name: 'operations', data: operations },
        ]),
      );
      await multipart({
        contentType: 'multipart/form-data; boundary=zz',
        body: Buffer.from('--zz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":'),
      });
      await multipart({
        contentType: 'multipart/form-data; boundary=zz',
        body: Buffer.from('--zz\r\ngarbage\r\n\r\nx\r\n--zz--\r\n'),
      });
      await multipart({ contentType: 'multipart/form-data; boundary=zz', body: Buffer.from('') });
      expectNoProblems(label);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: truncated and malformed REST bodies', () => {
  const label = 'REST fixed';
  it(
    'answers truncated multipart, deep JSON and broken framing with the original error shapes',
    async () => {
      const jwt = () => authorization({ kind: 'jwt', who: 'owner' }, ids)!;
      const session = () => `Bearer ${ids.sessions.owner}`;
      const signingPath = '/api/v4/addons/fuzz-upload@example.com/versions/9.9/';
      const accountPath = `/api/v4/accounts/account/${users.owner}/`;
      const xpi = files[0];
      const send = (
        method: string,
        target: string,
        auth: string,
        body: { contentType: string; body: Buffer },
        style: RestErrorStyle = 'drf',
        extra: [string, string][] = [],
      ) =>
        fixedRest(
          label,
          {
            method,
            target,
            headers: [['Authorization', auth], ['Content-Type', body.contentType], ...extra],
            body: body.body,
          },
          style,
        );
      const upload = (data: Buffer, options: Parameters<typeof multipartBody>[1] = {}) =>
        multipartBody(
          [{ name: 'upload', filename: 'fuzz.xpi', contentType: 'application/x-xpinstall', data }],
          options,
        );
      const picture = (data: Buffer, options: Parameters<typeof multipartBody>[1] = {}) =>
        multipartBody([{ name: 'picture_upload', filename: 'me.png', contentType: 'image/png', data }], options);

      // Multipart: a part opened and never closed, no final boundary, a file over MAX_UPLOAD_MB (1 here).
      await send('PUT', signingPath, jwt(), upload(xpi, { truncate: true }), 'signing');
      await send('PUT', signingPath, jwt(), upload(xpi, { noFinalBoundary: true }), 'signing');
      await send('POST', '/api/v4/addons/', jwt(), upload(xpi, { truncate: true }), 'signing');
      await send('PUT', signingPath, jwt(), upload(Buffer.alloc(1.5 * MB, 3)), 'signing');
      await send('PUT', signingPath, jwt(), upload(Buffer.alloc(1.5 * MB, 3), { truncate: true }), 'signing');
      await send('PATCH', accountPath, session(), picture(await png(64, 64), { truncate: true }));
      await send('PATCH', accountPath, session(), picture(Buffer.alloc(1.5 * MB, 3)));
      await send('PATCH', accountPath, session(), picture(Buffer.from('not a png')));
      await send(
        'PUT',
        signingPath,
        jwt(),
        {
          contentType: 'multipart/form-data; boundary=zz',
          body: Buffer.from('--zz\r\nContent-Disposition: form-data; name="upload"; filename="a.xpi"\r\n\r\nPK'),
        },
        'signing',
      );
      await send(
        'PUT',
        signingPath,
        jwt(),
        {
          contentType: 'multipart/form-data; boundary=zz',
          body: Buffer.from(
            `--zz\r\nContent-Disposition: form-data; name="upload"\r\n${'X-Pad: y\r\n'.repeat(3000)}\r\nx\r\n--zz--\r\n`,
          ),
        },
        'signing',
      );
      await send(
        'PUT',
        signingPath,
        jwt(),
        {
          contentType: 'multipart/form-data; boundary=zz',
          body: Buffer.from(
            Array.from(
              { length: 80 },
              (_, i) => `--zz\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nv\r\n`,
            ).join('') + '--zz--\r\n',
          ),
        },
        'signing',
      );
      await send(
        'PUT',
        signingPath,
        jwt(),
        {
          contentType: 'multipart/form-data; boundary=zz',
          body: Buffer.from(
            Array.from(
              { length: 8 },
              (_, i) => `--zz\r\nContent-Disposition: form-data; name="u${i}"; filename="a${i}.xpi"\r\n\r\nPK\r\n`,
            ).join('') + '--zz--\r\n',
          ),
        },
        'signing',
      );
      await send(
        'PUT',
        signingPath,
        jwt(),
        { contentType: 'multipart/form-data; boundary=zz', body: Buffer.from('--zz--\r\n') },
        'signing',
      );
      await send(
        'PUT',
        signingPath,
        jwt(),
        { contentType: 'multipart/form-data; boundary=zz', body: Buffer.from('garbage') },
        'signing',
      );
      await send(
        'PUT',
        signingPath,
        jwt(),
        { contentType: 'multipart/form-data', body: Buffer.from('--x\r\n\r\n') },
        'signing',
      );
      // Deep and huge JSON, NUL characters, lone surrogates.
      const collections = `/api/v4/accounts/account/${users.owner}/collections/`;
      for (const text of [
        deepJsonText(10_000, 'array'),
        deepJsonText(10_000, 'object'),
        `{"name":${deepJsonText(10_000, 'object')},"slug":"deep"}`,
        `{"name":${deepJsonText(10_000, 'array')},"slug":"deep2"}`,
        '{"name":"a\\u0000b","slug":"nul"}',
        '{"name":{"en-US":"a\\u0000b"},"slug":"nul2"}',
        '{"name":{"\\u0000":"x"},"slug":"nul3"}',
        '{"name":"\\ud800","slug":"lone"}',
        '{"name":"x","slug":"\\u0000"}',
        `{"name":"${'n'.repeat(2 * MB)}","slug":"huge"}`,
        '{"name":"x","slug":"' + 'a'.repeat(100_000) + '"}',
      ]) {
        await send('POST', collections, session(), { contentType: 'application/json', body: Buffer.from(text) });
      }
      await send('POST', '/api/v4/ratings/rating/', `Bearer ${ids.sessions.other}`, {
        contentType: 'application/json',
        body: Buffer.from(`{"addon":"fuzz-addon","score":5,"body":"a\\u0000b"}`),
      });
      await send('PATCH', accountPath, session(), {
        contentType: 'application/json',
        body: Buffer.from('{"biography":"a\\u0000b","display_name":"\\ud800","homepage":"http://\\u0000"}'),
      });
      await send('POST', '/api/v4/activity/mail/', '', {
        contentType: 'application/json',
        body: Buffer.from(
          JSON.stringify({
            SecretKey: MAIL_SECRET,
            Type: 'inbound',
            Message: { TextBody: 'a\u0000b', To: [{ EmailAddress: 'reviewreply+\u0000@x' }] },
          }),
        ),
      });
      await fixedRest(label, {
        method: 'GET',
        target: '/api/v4/accounts/profile/',
        headers: [
          [
            'Authorization',
            authorization({ kind: 'forged-jwt', who: 'owner', variant: 'hostile-iss', hostile: '\u0000' }, ids)!,
          ],
        ],
      });
      await send('PATCH', `${collections}fuzz-coll/`, session(), {
        contentType: 'application/json',
        body: Buffer.from('{"description":{"en-US":"\\ud800"}}'),
      });
      // Framing: a body shorter than announced with the client gone, a body longer than announced,
      // broken chunked encoding. The process must survive; answers, when there are any, must be sound.
      const json = Buffer.from('{"name":"cut","slug":"cut"}');
      const headers: [string, string][] = [
        ['Authorization', session()],
        ['Content-Type', 'application/json'],
      ];
      await fixedRest(label, { method: 'POST', target: collections, headers, body: json, contentLength: 500 }, 'drf', {
        halfClose: true,
        answerRequired: false,
      });
      const cutUpload = upload(xpi);
      await fixedRest(
        label,
        {
          method: 'PUT',
          target: signingPath,
          headers: [
            ['Authorization', jwt()],
            ['Content-Type', cutUpload.contentType],
          ],
          body: cutUpload.body.subarray(0, 200),
          contentLength: cutUpload.body.length,
        },
        'signing',
        { halfClose: true, answerRequired: false },
      );
      await fixedRest(label, { method: 'POST', target: collections, headers, body: json, contentLength: 5 });
      await fixedRest(label, {
        method: 'POST',
        target: collections,
        headers: [...headers, ['Transfer-Encoding', 'chunked']],
        body: '5\r\n{"nam\r\nZZ\r\nbroken\r\n0\r\n\r\n',
        contentLength: null,
      });
      await fixedRest(
        label,
        {
          method: 'POST',
          target: collections,
          headers: [...headers, ['Transfer-Encoding', 'chunked']],
          body: '1000\r\n{"name":',
          contentLength: null,
        },
        'drf',
        { halfClose: true, answerRequired: false },
      );
      expectNoProblems(label);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: hostile Host headers', () => {
  const label = 'Host header';
  it(
    "answers requests with odd Host headers in the endpoint's shape",
    async () => {
      for (const host of HOSTILE_HOSTS) {
        const headers: [string, string][] = [['Host', host]];
        await fixedRest(label, { method: 'GET', target: '/api/v4/site/', headers });
        await fixedRest(label, { method: 'GET', target: '/api/v3/addons/search/?q=fuzz', headers });
        await fixedRest(label, {
          method: 'GET',
          target: '/api/v4/accounts/profile/',
          headers: [...headers, ['Authorization', `Bearer ${ids.sessions.owner}`]],
        });
        await fixedGraphql(
          label,
          postGraphql('{"query":"{ siteStatus { readOnly } addon(id: \\"fuzz-addon\\") { id url } }"}', [
            ...headers,
            ['Content-Type', 'application/json'],
          ]),
        );
      }
      expectNoProblems(label);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: requests the HTTP parser refuses', () => {
  const label = 'HTTP parser';
  it(
    'answers them with a JSON body',
    async () => {
      const refusals: [string, Buffer][] = [
        [
          'header over 16 KB',
          buildRequest({ method: 'GET', target: '/api/v4/site/', headers: [['X-Big', 'b'.repeat(20_000)]] }),
        ],
        ['URL over 16 KB', buildRequest({ method: 'GET', target: `/api/v4/addons/search/?q=${'q'.repeat(20_000)}` })],
        [
          'Authorization over 16 KB',
          buildRequest({
            method: 'GET',
            target: '/api/v4/accounts/profile/',
            headers: [['Authorization', `JWT ${'j'.repeat(20_000)}`]],
          }),
        ],
        ['garbage request line', Buffer.from('GARBAGE\r\n\r\n')],
        [
          'binary request line',
          Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0d, 0x0a, 0x0d, 0x0a]),
        ],
        ['HTTP/2 preface', Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')],
        ['unknown HTTP version', Buffer.from('GET /api/v4/site/ HTTP/9.9\r\nHost: x\r\n\r\n')],
        ['space in the target', Buffer.from('GET /api/v4/site/ x HTTP/1.1\r\nHost: x\r\n\r\n')],
        [
          'NUL in a header value',
          Buffer.from(
            'GET /api/v4/site/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a\u0000b\r\nConnection: close\r\n\r\n',
          ),
        ],
        [
          'invalid header name',
          Buffer.from('GET /api/v4/site/ HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\nConnection: close\r\n\r\n'),
        ],
        [
          'bare CR in a header',
          Buffer.from('GET /api/v4/site/ HTTP/1.1\r\nHost: x\rX: 1\r\nConnection: close\r\n\r\n'),
        ],
        [
          'Content-Length and Transfer-Encoding',
          Buffer.from(
            'POST /api/v4/ratings/rating/ HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n',
          ),
        ],
        [
          'two different Content-Lengths',
          Buffer.from(
            'POST /api/v4/ratings/rating/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}',
          ),
        ],
        [
          'negative Content-Length',
          Buffer.from(
            'POST /api/v4/ratings/rating/ HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n',
          ),
        ],
        [
          'bad chunk size',
          Buffer.from(
            'POST /api/v4/ratings/rating/ HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
          ),
        ],
        [
          'two Host headers',
          Buffer.from('GET /api/v4/site/ HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'),
        ],
        ['no Host on HTTP/1.1', Buffer.from('GET /api/v4/site/ HTTP/1.1\r\nConnection: close\r\n\r\n')],
        [
          'GraphQL: header over 16 KB',
          buildRequest({ method: 'POST', target: '/graphql', headers: [['X-Big', 'b'.repeat(20_000)]], body: '{}' }),
        ],
      ];
      for (const [what, bytes] of refusals) {
        const outcome = await rawRequest(port, bytes, { timeoutMs: REQUEST_TIMEOUT_MS, halfClose: false });
        for (const problem of parserRefusalProblems(outcome))
          log.add(label, `${what}: ${problem}`, short(bytes.toString('latin1'), 120), describeOutcome(outcome));
      }
      expectNoProblems(label);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: HEAD requests', () => {
  const label = 'HEAD';
  const headOnly = ({ response }: { response: { body: Buffer } }) =>
    response.body.length ? [`HEAD answered with a body (${response.body.length} bytes)`] : [];
  it(
    'answers them with headers only: every GET route, the other endpoints, parser refusals',
    async () => {
      await refreshIdentities();
      const targets = ['/healthz', '/graphql', '/user-media/none.png', '/downloads/file/1/x.xpi', '/api/v4/nowhere/'];
      for (const route of routes.filter((r) => r.method === 'GET')) {
        const path = route.path.replace(/<([a-z_]+)>/gi, (_, name: string) => String(known[name]?.[0] ?? 1));
        for (const version of route.versions) targets.push(`/api/${version}${path}`);
      }
      const big = 'b'.repeat(20_000);
      const specs: RequestSpec[] = [
        ...targets.map((target) => ({
          method: 'HEAD',
          target,
          headers: [['Authorization', `Bearer ${ids.sessions.owner}`]] as [string, string][],
        })),
        { method: 'HEAD', target: '/api/v4/site/', headers: [['X-Big', big]] },
        { method: 'HEAD', target: `/api/v4/addons/search/?q=${'q'.repeat(20_000)}` },
        { method: 'HEAD', target: '/api/v4/site/', headers: [['Bad Header', '1']] },
        { method: 'HEAD', target: '/graphql', headers: [['X-Big', big]] },
      ];
      for (const spec of specs) await exchange(label, spec, headOnly, describeRequest(spec, null));
      expectNoProblems(label);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: concurrent conflicting writes', () => {
  const label = 'Conflicts';
  it(
    'answers bursts of writes that take the same locks at once below 500, and keeps the rating columns right',
    async () => {
      const check = (kind: ConflictKind) => (answer: RawOutcome & { kind: 'answer' }) =>
        kind === 'graphql'
          ? graphqlProblems(answer.response)
          : [restErrorProblem(answer.response, 'drf')].flatMap((p) => p ?? []);
      const send = (kind: ConflictKind, spec: RequestSpec) =>
        exchange(
          `${label}: ${spec.method} ${spec.target.replace(/\d+/g, '<n>')}`,
          spec,
          check(kind),
          describeRequest(spec, null),
        );
      const addonIds = await conflictBursts(t, RUNS, send);
      expectNoProblems(label);
      expect(await inconsistentAddons(t, addonIds)).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('fuzz: the process stays up', () => {
  it('answers /healthz with 200 after all of the above, with no uncaught error on the way', async () => {
    const outcome = await rawRequest(port, buildRequest({ method: 'GET', target: '/healthz' }), { timeoutMs: 10_000 });
    expect(describeOutcome(outcome)).toMatch(/^200 /);
    expect(processErrors).toEqual([]);
  });
});
