/**
 * Reviewer browse and compare benchmark: an unlisted extension of 500 files and about 5 MB (manifest,
 * locales, hundreds of JS files of varied sizes with a few of several hundred KB, CSS, HTML, PNG
 * images, nested folders) uploaded as 1.0 and, with about 10% of its files changed (edits in the
 * middle of JS files, files added and deleted, the manifest's version), as 1.1, both through the
 * signing API and waited for until signed; then a reviewer (Addons:ReviewUnlisted, session token)
 * browses and compares them.
 *
 * Every figure is set against a version detail request of the same run, signed in as the same
 * reviewer (GET /api/v4/addons/addon/<id>/versions/<v2>/): under load (autocannon, the suite's
 * connections and duration) for the load rows, and as sequential single requests for the
 * sequential rows.
 *
 * - first browse of each version (the tree is computed once per package, then read from
 *   `package_contents`): one sequential request each, then the stored tree sequentially.
 * - first compare (the diff is computed once per pair of packages and path, then read from
 *   `package_file_diffs`): never-compared paths of 1.0 -> 1.1. Sequentially, a sample of about
 *   BENCH_BROWSE_FIRST_SEQ (default 100) paths: half of the changed files and unchanged ones
 *   for the rest, plus every large modified JS file on its own row; under load, every other
 *   path, each requested exactly once (`once`: no warm-up, the run lasts as long as it takes),
 *   so no request reads a stored diff. With PostgreSQL the stored diffs are counted before and
 *   after to prove it.
 * - browse (default file, a large JS file) and repeated compares (a modified JS file, the largest
 *   modified JS file, a large unchanged one) under load.
 * - the server's RSS idle after the uploads, after each scenario and at the end.
 * - the largest member (BENCH_BROWSE_LARGEST=0 skips it): 1.0 and 1.1 of another extension, each
 *   holding 100 MiB of 29-byte lines (the largest member uploads allow, unchanged between them),
 *   a member at the diff limits (100,000 lines, 8 MB) and one at the content limit (16 MiB),
 *   stored; after a restart, each request alone (compares, browses, the download) with its peak
 *   RSS (VmHWM reset before it) as a ratio to the same process's idle RSS.
 *
 * Embedded PGlite by default; with DATABASE_URL, a scratch database on that server (dropped
 * afterwards). Any non-2xx answer, an upload not signed, or a compare whose status is not the
 * expected one fails the run.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buffer } from 'node:stream/consumers';
import { crc32, deflateSync } from 'node:zlib';
import yazl from 'yazl';
import { signJwt } from '../src/auth/jwt.js';
import { BENCH_SECRET_KEY } from './catalogue.js';
import {
  createScratchDatabase,
  dropScratchDatabase,
  fmt,
  percentile,
  processRssMB,
  runCli,
  sleep,
  runScenario,
  startServer,
  stopServer,
  type SuiteOptions,
  withClient,
  type RunningServer,
  type Scenario,
  type ScenarioResult,
  endSuite,
  logServerTail,
} from './lib.js';

export interface BrowseSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Files of version 1.0 and their total size in bytes (uncompressed). */
  files: number;
  targetBytes: number;
  /** Paths in the sequential first-compare sample (the large modified JS files come on top). */
  firstSequential: number;
  /** Sequential requests of the baseline and of the stored-tree browse. */
  sequentialRequests: number;
  /** An upload not signed by then is a failure. */
  uploadTimeoutMs: number;
  /** Run the largest-member phase (BENCH_BROWSE_LARGEST=0 skips it). */
  largest: boolean;
}

export function browseSettings(): BrowseSettings {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  return {
    connections: 10,
    warmupSeconds: 2,
    durationSeconds: duration,
    files: 500,
    targetBytes: 5_000_000,
    firstSequential: Math.max(10, Math.round(Number(process.env.BENCH_BROWSE_FIRST_SEQ ?? 100))),
    sequentialRequests: 50,
    uploadTimeoutMs: 600_000,
    largest: process.env.BENCH_BROWSE_LARGEST !== '0',
  };
}

/** Sequential single requests, timed one by one. */
export interface SequentialResult {
  name: string;
  request: string;
  n: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  meanMs: number;
  /** Mean size of the answers' bodies. */
  meanKB: number;
  /** Ratios to the sequential baseline's same percentile. */
  p50Ratio: number;
  p95Ratio: number;
}

export interface BrowseReport {
  database: 'embedded' | 'postgres';
  settings: BrowseSettings;
  package: {
    files: number;
    bytes: number;
    zipBytes: number;
    /** Largest files (path: bytes). */
    largest: Record<string, number>;
    v2: { files: number; bytes: number; zipBytes: number };
    changes: { modified: number; added: number; deleted: number };
  };
  /** Upload (PUT) to signed, per version, and the poll count. */
  uploads: { version: string; ms: number; polls: number }[];
  ids: { addon: number; v1: number; v2: number };
  /** Under load; the first is the baseline (version detail). `responseKB`: one answer's size. */
  load: (ScenarioResult & { p50Ratio: number; p95Ratio: number; rpsRatio: number; responseKB: number | null })[];
  /** Sequential single requests; the first is the baseline (version detail). */
  sequential: SequentialResult[];
  /** The server process alone, and with its children (the addons-linter worker), as the table's RSS column. */
  memory: {
    idleMB: number | null;
    endMB: number | null;
    idleWithChildrenMB: number | null;
    endWithChildrenMB: number | null;
  };
  /** The machine's 1-minute load average before the uploads and after the last scenario (a shared machine). */
  machine: { cpus: number; loadBefore: number; loadAfter: number };
  /** The largest-member phase (null when skipped). */
  largest: LargestReport | null;
  notes: string[];
  failures: string[];
}

/**
 * One request of the largest-member phase, alone on a fresh server: its time, its answer's size,
 * and the server's peak RSS during it (VmHWM, reset just before) against the idle RSS of the same
 * process.
 */
export interface LargestRow {
  name: string;
  request: string;
  ms: number;
  answerKB: number;
  /** RSS just before the request (what earlier requests left, e.g. the embedded database's grown memory). */
  beforeMB: number | null;
  peakMB: number | null;
  /** Peak RSS over the idle RSS. */
  peakRatio: number | null;
}

export interface LargestReport {
  /** Members of both versions (path: bytes, lines) and the upload's size. */
  members: Record<string, { bytes: number; lines: number }>;
  zipBytes: number;
  uploads: { version: string; ms: number }[];
  idleMB: number | null;
  rows: LargestRow[];
}

// --- the package ---------------------------------------------------------------------------------

/** mulberry32: the same package on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
type Random = () => number;
const int = (r: Random, n: number) => Math.floor(r() * n);
const pick = <T>(r: Random, list: readonly T[]): T => list[int(r, list.length)];

const WORDS = (
  'tab window panel toolbar button menu item list entry record cache store query filter sort ' +
  'render update refresh notify message event handler listener callback promise request response ' +
  'header body payload token session user account profile setting option preference theme color ' +
  'font size width height offset margin border shadow layout grid column row cell table view ' +
  'model state action reducer dispatch effect context provider consumer hook ref node element ' +
  'attribute property value key index count total limit range start end first last next previous ' +
  'parent child sibling root tree branch leaf path route link anchor target source origin frame ' +
  'document selection range text content label title caption tooltip popup dialog modal overlay ' +
  'badge icon image sprite canvas pixel buffer stream chunk block page bookmark history download ' +
  'upload progress status error warning info debug trace timer interval delay timeout retry queue ' +
  'worker thread task job schedule batch group merge split parse format encode decode serialize ' +
  'locale language translate region currency number date time zone clock counter metric'
).split(' ');
const word = (r: Random) => pick(r, WORDS);
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
const sentence = (r: Random, n = 4 + int(r, 8)) => Array.from({ length: n }, () => word(r)).join(' ');

/** Plain JavaScript (scripts, no modules) that addons-linter parses: functions, objects, comments. */
class JsWriter {
  private serial = 0;
  constructor(private readonly r: Random) {}

  private expr(params: string[]): string {
    const r = this.r;
    switch (int(r, 6)) {
      case 0:
        return `${pick(r, params)}.${word(r)}`;
      case 1:
        return String(int(r, 10_000));
      case 2:
        return `'${sentence(r, 2 + int(r, 5))}'`;
      case 3:
        return `${pick(r, params)}.${word(r)} * ${1 + int(r, 64)}`;
      case 4:
        return `Math.max(${int(r, 100)}, ${pick(r, params)}.${word(r)}Count || 0)`;
      default:
        return `{ ${word(r)}: ${int(r, 500)}, ${word(r)}Label: '${sentence(r, 3)}' }`;
    }
  }

  private statement(params: string[], i: number): string {
    const r = this.r;
    const p = pick(r, params);
    switch (int(r, 7)) {
      case 0:
        return `  if (${p} && ${p}.${word(r)}) {\n    ${p}.${word(r)}${cap(word(r))} = '${sentence(r)}';\n  }`;
      case 1:
        return `  for (const item of ${p}.${word(r)}List || []) {\n    console.debug('${sentence(r, 3)}', item.${word(r)});\n  }`;
      case 2:
        return `  // ${sentence(r)}`;
      case 3:
        return `  ${p}.${word(r)}${cap(word(r))} = ${this.expr(params)};`;
      case 4:
        return `  browser.storage.local.set({ ${word(r)}${cap(word(r))}: ${this.expr(params)} });`;
      default:
        return `  const ${word(r)}${cap(word(r))}${i} = ${this.expr(params)};`;
    }
  }

  /** A documented top-level function. */
  block(): string {
    const r = this.r;
    const name = `${word(r)}${cap(word(r))}${++this.serial}`;
    const params = [word(r), `${word(r)}Options`];
    const lines = [
      '/**',
      ` * ${cap(sentence(r))}.`,
      ` * @param {Object} ${params[0]} ${sentence(r, 3)}`,
      ` * @param {Object} ${params[1]} ${sentence(r, 3)}`,
      ' */',
      `function ${name}(${params.join(', ')}) {`,
    ];
    const statements = 3 + int(r, 14);
    for (let i = 0; i < statements; i++) lines.push(this.statement(params, i));
    lines.push(`  return ${this.expr(params)};`, '}', '');
    return lines.join('\n');
  }

  /** A file of about `bytes` bytes. */
  file(bytes: number, title: string): string {
    const parts = [`/* ${title}: ${sentence(this.r)} */`, "'use strict';", ''];
    let size = parts.join('\n').length;
    while (size < bytes) {
      const block = this.block();
      parts.push(block);
      size += block.length + 1;
    }
    return `${parts.join('\n')}\n`;
  }
}

function css(r: Random, bytes: number): string {
  const rules: string[] = [];
  let size = 0;
  while (size < bytes) {
    const color = () => `#${int(r, 0xffffff).toString(16).padStart(6, '0')}`;
    const rule =
      `.${word(r)}-${word(r)} .${word(r)} {\n  color: ${color()};\n  background: ${color()};\n` +
      `  margin: ${int(r, 24)}px ${int(r, 24)}px;\n  padding: ${int(r, 16)}px;\n  display: ${pick(r, ['flex', 'block', 'grid', 'inline-block'])};\n}\n`;
    rules.push(rule);
    size += rule.length;
  }
  return rules.join('\n');
}

function html(r: Random, title: string, script: string, style: string): string {
  const items = Array.from(
    { length: 10 + int(r, 30) },
    () => `    <li class="${word(r)}-${word(r)}">${sentence(r)}</li>`,
  );
  return [
    '<!DOCTYPE html>',
    '<html>',
    '<head>',
    '  <meta charset="utf-8">',
    `  <title>${title}</title>`,
    `  <link rel="stylesheet" href="${style}">`,
    '</head>',
    '<body>',
    `  <h1>${cap(sentence(r, 3))}</h1>`,
    '  <ul>',
    ...items,
    '  </ul>',
    `  <script src="${script}"></script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A valid RGB PNG of random pixels (incompressible, like real images are once compressed). */
function png(r: Random, size: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc(size * (size * 3 + 1));
  for (let i = 0; i < raw.length; i++) raw[i] = i % (size * 3 + 1) === 0 ? 0 : int(r, 256);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'ja', 'pt_BR', 'ru', 'zh_CN', 'nl', 'pl', 'sv_SE'];
const JS_DIRS = [
  'src/background',
  'src/content',
  'src/content/sites',
  'src/popup',
  'src/popup/components',
  'src/options',
  'src/options/sections',
  'src/lib/storage',
  'src/lib/storage/adapters',
  'src/lib/net',
  'src/lib/net/protocols/http',
  'src/lib/ui/widgets',
  'src/lib/ui/widgets/charts',
  'src/lib/i18n',
  'src/lib/util',
  'src/lib/sync/engines',
  'src/features/search',
  'src/features/tabs',
  'src/features/bookmarks/import',
  'src/features/history',
];
const CSS_DIRS = ['css', 'css/themes', 'src/popup/styles', 'src/options/styles', 'src/lib/ui/widgets/styles'];
const IMAGE_DIRS = ['images/icons', 'images/ui', 'images/ui/toolbar', 'images/flags', 'src/popup/assets'];
/** The few large scripts (bundled libraries, generated data), in KB. */
const LARGE_JS: [string, number][] = [
  ['vendor/editor-bundle.js', 620],
  ['vendor/charting.js', 450],
  ['vendor/crypto-lib.js', 360],
  ['src/generated/rules-data.js', 300],
];

export interface ExtensionFiles {
  files: Map<string, Buffer>;
  /** Version 1.1's paths by status against 1.0. */
  modified: string[];
  added: string[];
  deleted: string[];
  /** Large JS files of 1.0: modified in 1.1, and unchanged. */
  largeModified: string[];
  largeUnchanged: string[];
}

function manifest(guid: string, version: string, background: string[], content: string[], contentCss: string) {
  return `${JSON.stringify(
    {
      manifest_version: 2,
      name: 'Browse Bench Extension',
      description: 'A realistic-sized extension uploaded by the reviewer browse benchmark.',
      version,
      default_locale: 'en',
      browser_specific_settings: { gecko: { id: guid, data_collection_permissions: { required: ['none'] } } },
      permissions: ['storage', 'tabs'],
      background: { scripts: background },
      content_scripts: [{ matches: ['https://*.example.com/*'], js: content, css: [contentCss] }],
      browser_action: { default_popup: 'popup/popup.html', default_title: 'Browse Bench' },
      options_ui: { page: 'options/options.html' },
    },
    null,
    2,
  )}\n`;
}

/** Version 1.0: `count` files of about `targetBytes` in all. */
export function extensionV1(guid: string, count: number, targetBytes: number): ExtensionFiles {
  const r = random(12);
  const js = new JsWriter(r);
  const files = new Map<string, Buffer>();
  const add = (path: string, content: string | Buffer) =>
    files.set(path, typeof content === 'string' ? Buffer.from(content) : content);
  const serial = (dir: string, ext: string) => `${dir}/${word(r)}-${word(r)}-${files.size}.${ext}`;

  for (const locale of LOCALES) {
    const messages: Record<string, { message: string; description: string }> = {};
    for (let i = 0; i < 40; i++)
      messages[`${word(r)}_${word(r)}_${i}`] = { message: cap(sentence(r)), description: sentence(r) };
    add(`_locales/${locale}/messages.json`, `${JSON.stringify(messages, null, 2)}\n`);
  }
  for (const [path, kb] of LARGE_JS) add(path, js.file(kb * 1024, path));
  const images = Math.round(count * 0.12);
  for (let i = 0; i < images; i++) add(serial(pick(r, IMAGE_DIRS), 'png'), png(r, pick(r, [16, 24, 32, 48, 64])));
  const styles = Math.round(count * 0.09);
  for (let i = 0; i < styles; i++) add(serial(pick(r, CSS_DIRS), 'css'), css(r, 1000 + int(r, 7000)));
  const pages = ['popup/popup.html', 'options/options.html'];
  for (let i = 0; i < Math.round(count * 0.035); i++) pages.push(`pages/${word(r)}-${word(r)}-${i}.html`);
  const styleList = [...files.keys()].filter((p) => p.endsWith('.css'));
  // The manifest, pages and scripts: the pages' scripts are among the JS files written last.
  const scripts = count - files.size - pages.length - 1;
  const fixed = [...files.values()].reduce((sum, b) => sum + b.length, 0);
  const weights = Array.from({ length: scripts }, () => Math.exp(2 * (r() + r() + r() - 1.5)));
  const scale = Math.max(0, targetBytes - fixed - pages.length * 1500 - 1500) / weights.reduce((a, b) => a + b, 0);
  const scriptPaths: string[] = [];
  for (const weight of weights) {
    const path = serial(pick(r, JS_DIRS), 'js');
    add(path, js.file(Math.max(300, weight * scale), path));
    scriptPaths.push(path);
  }
  for (const page of pages) {
    const depth = page.split('/').length - 1;
    const up = '../'.repeat(depth);
    add(page, html(r, cap(sentence(r, 2)), up + pick(r, scriptPaths), up + pick(r, styleList)));
  }
  const background = scriptPaths.filter((p) => p.startsWith('src/background/')).slice(0, 4);
  const content = scriptPaths.filter((p) => p.startsWith('src/content/')).slice(0, 4);
  add('manifest.json', manifest(guid, '1.0', background, content, styleList[0]));
  if (files.size !== count) throw new Error(`generated ${files.size} files, not ${count}`);
  return { files, modified: [], added: [], deleted: [], largeModified: [], largeUnchanged: [] };
}

/** Edits a script in the middle: a new function between two, and a changed constant further on. */
function editScript(r: Random, js: JsWriter, text: string, spots: number): string {
  const lines = text.split('\n');
  for (let s = 0; s < spots; s++) {
    // Spots spread over the middle 80% of the file, each at a function boundary.
    const at = Math.floor(lines.length * (0.1 + (0.8 * (s + r())) / spots));
    let boundary = at;
    while (boundary < lines.length - 1 && !(lines[boundary] === '}' && lines[boundary + 1] === '')) boundary++;
    if (boundary < lines.length - 1) lines.splice(boundary + 2, 0, ...js.block().split('\n'));
    for (let i = boundary + 2; i < Math.min(lines.length, boundary + 200); i++) {
      const m = /^( {2}const \w+ = ).*;$/.exec(lines[i]);
      if (m) {
        lines[i] = `${m[1]}${int(r, 100_000)};`;
        break;
      }
    }
  }
  return lines.join('\n');
}

/** Version 1.1: about 10% of 1.0's files changed, added or deleted, and the manifest's version. */
export function extensionV2(v1: ExtensionFiles): ExtensionFiles {
  const r = random(34);
  const js = new JsWriter(r);
  const files = new Map(v1.files);
  const paths = [...v1.files.keys()];
  const large = LARGE_JS.map(([p]) => p);
  const scripts = paths.filter((p) => p.endsWith('.js') && !large.includes(p));
  const shuffled = <T>(list: T[]) =>
    list
      .map((v) => [r(), v] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, v]) => v);
  const order = shuffled(scripts);
  const modified: string[] = [];
  const edit = (path: string, content: string | Buffer) => {
    files.set(path, typeof content === 'string' ? Buffer.from(content) : content);
    modified.push(path);
  };
  // 33 scripts edited in one to three places, the two largest scripts in six.
  for (const path of order.slice(0, 33)) edit(path, editScript(r, js, files.get(path)!.toString(), 1 + int(r, 3)));
  const largeModified = large.slice(0, 2);
  for (const path of largeModified) edit(path, editScript(r, js, files.get(path)!.toString(), 6));
  const deleted = order.slice(33, 38);
  for (const path of deleted) files.delete(path);
  for (const path of shuffled(paths.filter((p) => p.endsWith('.css'))).slice(0, 3)) {
    edit(path, `${files.get(path)!.toString()}\n.${word(r)}-added {\n  opacity: 0.${int(r, 9)};\n}\n`);
  }
  for (const path of shuffled(paths.filter((p) => p.endsWith('.html'))).slice(0, 2)) {
    edit(
      path,
      files
        .get(path)!
        .toString()
        .replace('  </ul>', `    <li class="new-${word(r)}">${sentence(r)}</li>\n  </ul>`),
    );
  }
  for (const path of shuffled(paths.filter((p) => p.endsWith('.png'))).slice(0, 2)) edit(path, png(r, 32));
  const locale = '_locales/de/messages.json';
  const messages = JSON.parse(files.get(locale)!.toString()) as Record<string, { message: string }>;
  for (const key of Object.keys(messages).slice(10, 14)) messages[key].message = cap(sentence(r));
  edit(locale, `${JSON.stringify(messages, null, 2)}\n`);
  edit('manifest.json', files.get('manifest.json')!.toString().replace('"version": "1.0"', '"version": "1.1"'));
  const added: string[] = [];
  for (let i = 0; i < 5; i++) {
    const path = `${pick(r, JS_DIRS)}/added-${word(r)}-${i}.js`;
    files.set(path, Buffer.from(js.file(2000 + int(r, 12_000), path)));
    added.push(path);
  }
  files.set('images/ui/added-badge.png', png(r, 48));
  added.push('images/ui/added-badge.png');
  return { files, modified, added, deleted, largeModified, largeUnchanged: large.slice(2) };
}

export async function zipOf(files: Map<string, Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2025-01-01T00:00:00Z');
  for (const [path, content] of files) zip.addBuffer(content, path, { mtime, compress: !path.endsWith('.png') });
  zip.end();
  return buffer(zip.outputStream);
}

const totalBytes = (files: Map<string, Buffer>) => [...files.values()].reduce((sum, b) => sum + b.length, 0);

// --- the service ---------------------------------------------------------------------------------

interface ApiKey {
  key: string;
  secret: string;
}

const jwt = (apiKey: ApiKey) => {
  const iat = Math.floor(Date.now() / 1000);
  return `JWT ${signJwt({ iss: apiKey.key, iat, exp: iat + 300 }, apiKey.secret)}`;
};

interface StatusBody {
  url?: string;
  processed?: boolean;
  valid?: boolean;
  files?: { signed?: boolean }[];
  validation_results?: { messages?: { message?: string; type?: string }[] } | null;
}

/** PUT the package, then poll its status until its file is signed; throws otherwise. */
async function uploadUntilSigned(
  base: string,
  apiKey: ApiKey,
  guid: string,
  version: string,
  zip: Buffer,
  timeoutMs: number,
): Promise<{ ms: number; polls: number }> {
  const form = new FormData();
  form.append('upload', new Blob([zip], { type: 'application/x-xpinstall' }), 'addon.xpi');
  form.append('channel', 'unlisted');
  const started = performance.now();
  const path = `/api/v4/addons/${encodeURIComponent(guid)}/versions/${version}/`;
  const put = await fetch(base + path, {
    method: 'PUT',
    headers: { Authorization: jwt(apiKey), Accept: 'application/json' },
    body: form,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const created = (await put.json().catch(() => ({}))) as StatusBody;
  if ((put.status !== 201 && put.status !== 202) || !created.url) {
    throw new Error(`PUT ${version} answered ${put.status}: ${JSON.stringify(created).slice(0, 500)}`);
  }
  const statusPath = new URL(created.url).pathname;
  for (let polls = 1; ; polls++) {
    const res = await fetch(base + statusPath, {
      headers: { Authorization: jwt(apiKey), Accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    });
    const status = (await res.json().catch(() => ({}))) as StatusBody;
    if (res.status !== 200) throw new Error(`status of ${version} answered ${res.status}`);
    if (status.files?.[0]?.signed === true) return { ms: performance.now() - started, polls };
    if (status.processed && !status.valid) {
      const errors = status.validation_results?.messages?.filter((m) => m.type === 'error').map((m) => m.message);
      throw new Error(`${version} is not valid: ${JSON.stringify(errors?.slice(0, 5))}`);
    }
    if (performance.now() - started > timeoutMs) throw new Error(`${version} not signed after ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** Runs `src/cli.ts <args>` with the server's environment; resolves with its stdout. */

/** The process and its children (as bench/lib.ts counts the server's RSS). */
function rssWithChildrenMB(pid: number | undefined): number | null {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    const all = [processRssMB(pid), ...children.map((c) => processRssMB(Number(c)))];
    return all.every((v) => v === null) ? null : round1(all.reduce<number>((a, b) => a + (b ?? 0), 0));
  } catch {
    return null;
  }
}

const round1 = (n: number) => Math.round(n * 10) / 10;

interface Sample {
  ms: number;
  bytes: number;
}

function sequentialStats(
  name: string,
  request: string,
  samples: Sample[],
  baseline?: SequentialResult,
): SequentialResult {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const p50Ms = round1(percentile(sorted, 50));
  const p95Ms = round1(percentile(sorted, 95));
  return {
    name,
    request,
    n: sorted.length,
    p50Ms,
    p95Ms,
    maxMs: round1(sorted[sorted.length - 1] ?? NaN),
    meanMs: round1(sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length)),
    meanKB: round1(samples.reduce((a, s) => a + s.bytes, 0) / Math.max(1, samples.length) / 1024),
    p50Ratio: baseline ? p50Ms / baseline.p50Ms : 1,
    p95Ratio: baseline ? p95Ms / baseline.p95Ms : 1,
  };
}

interface CompareBody {
  file?: { selected_file?: string; diff?: { mode?: string; path?: string } | null };
}

/** One GET, timed from sending to the last byte of the body; throws on anything but a 200. */
async function timed(base: string, path: string, headers: Record<string, string>) {
  const started = performance.now();
  const res = await fetch(base + path, { headers, signal: AbortSignal.timeout(300_000) });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return { ms, bytes: Buffer.byteLength(text), body: JSON.parse(text) as unknown };
}

const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;

// --- the largest member --------------------------------------------------------------------------

const MiB = 1024 * 1024;
/** 29 bytes: the kind of line that made 8 MiB into 2.8 million objects. */
const SHORT_LINE = 'const answer = 42; // a line\n';
/** The largest member an upload may hold (the zip limits' maxEntrySize, compat: 100 MiB). */
const LARGEST_MEMBER = 100 * MiB;
/** A member at the diff limits (BROWSE_DIFF_MAX_KB, BROWSE_DIFF_MAX_LINES defaults): still shown line by line. */
const AT_LIMIT_LINES = 100_000;
const AT_LIMIT_LINE = `${'x'.repeat(78)};\n`; // 80 bytes: 8,000,000 bytes in all
/** The largest text a browse shows (BROWSE_CONTENT_MAX_KB's default, 16 MiB). */
const CONTENT_LIMIT = 16 * MiB;

/**
 * Version 1.0 or 1.1 of an extension holding the largest allowed member, one at the diff limits
 * and one at the browse content limit, all stored.
 */
function largestPackage(guid: string, version: string): { zip: Buffer; members: LargestReport['members'] } {
  const manifestJson = `${JSON.stringify(
    {
      manifest_version: 2,
      name: 'Browse Bench Largest Member',
      version,
      browser_specific_settings: { gecko: { id: guid, data_collection_permissions: { required: ['none'] } } },
    },
    null,
    2,
  )}\n`;
  const members: [string, Buffer][] = [
    ['manifest.json', Buffer.from(manifestJson)],
    ['data/largest.txt', Buffer.alloc(LARGEST_MEMBER, SHORT_LINE)],
    ['data/at-limit.txt', Buffer.alloc(AT_LIMIT_LINES * AT_LIMIT_LINE.length, AT_LIMIT_LINE)],
    ['data/content-limit.txt', Buffer.alloc(CONTENT_LIMIT, SHORT_LINE)],
  ];
  // Stored, as real packages keep large members: a 100 MiB member of short lines deflates past the
  // compression ratio uploads refuse.
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of members) {
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE((3 << 8) | 20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x800, 8);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(data.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(nameBytes.length, 28);
    header.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    header.writeUInt32LE(offset, 42);
    parts.push(local, nameBytes, data);
    central.push(header, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  const lines = (data: Buffer) => {
    let n = 0;
    for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) n++;
    return n;
  };
  return {
    zip: Buffer.concat([...parts, directory, end]),
    members: Object.fromEntries(members.map(([name, data]) => [name, { bytes: data.length, lines: lines(data) }])),
  };
}

/** The process's peak resident memory since the last reset (VmHWM), in MB. */
function peakRssMB(pid: number | undefined): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}

/** Resets the process's peak RSS to its current RSS (Linux: `5` to /proc/<pid>/clear_refs). */
function resetPeakRss(pid: number | undefined): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Uploads 1.0 and 1.1 of an extension holding the largest allowed member (100 MiB of 29-byte
 * lines, unchanged between them), a member at the diff limits (100,000 lines, 8 MB) and one at the
 * content limit (16 MiB), on the running server; then restarts the server (the uploads and
 * signing leave their memory behind) and, on the fresh process, measures each request alone:
 * compares of the first two (first: computed, and stored when short; again), browses at the
 * content limit and of the largest (no content past BROWSE_CONTENT_MAX_KB) and the largest's
 * download (streamed). Each request's peak RSS is set against the same process's idle RSS.
 */
async function runLargestPhase(args: {
  env: Record<string, string>;
  server: RunningServer;
  apiKey: ApiKey;
  headers: Record<string, string>;
  settings: BrowseSettings;
  log: (message: string) => void;
  track: (server: RunningServer | undefined) => void;
  failures: string[];
}): Promise<{ report: LargestReport; server: RunningServer }> {
  const { env, apiKey, headers, settings, log, failures } = args;
  const guid = `browse-largest-${RUN}@browse-bench.example.com`;
  const uploads: LargestReport['uploads'] = [];
  let members: LargestReport['members'] = {};
  let zipBytes = 0;
  for (const version of ['1.0', '1.1']) {
    const built = largestPackage(guid, version);
    members = built.members;
    zipBytes = built.zip.length;
    log(`  browse: largest member: uploading ${version} (${fmt(zipBytes / MiB, 1)} MiB) and waiting until signed ...`);
    const outcome = await uploadUntilSigned(
      args.server.base,
      apiKey,
      guid,
      version,
      built.zip,
      settings.uploadTimeoutMs,
    );
    uploads.push({ version, ms: Math.round(outcome.ms) });
  }
  log('  browse: largest member: restarting the server ...');
  await stopServer(args.server.child);
  args.track(undefined);
  const server = await startServer({ ...env, JOB_WORKERS: 'false' });
  args.track(server);
  const { base } = server;
  const pid = server.child.pid;
  const addon = (await timed(base, `/api/v4/addons/addon/${encodeURIComponent(guid)}/`, headers)).body as {
    id: number;
  };
  const list = (await timed(base, `/api/v4/reviewers/addon/${addon.id}/versions/`, headers)).body as {
    id: number;
    version: string;
  }[];
  const [v1, v2] = ['1.0', '1.1'].map((v) => list.find((x) => x.version === v)!.id);
  const api = `/api/v4/reviewers/addon/${addon.id}/versions`;
  const detailPath = `/api/v4/addons/addon/${addon.id}/versions/${v2}/`;
  // Warm: the version detail, and both trees (computed once per package, as any first browse).
  for (let i = 0; i < 20; i++) await timed(base, detailPath, headers);
  await timed(base, `${api}/${v1}/`, headers);
  await timed(base, `${api}/${v2}/`, headers);
  await sleep(1000);
  const idleMB = processRssMB(pid);

  const rows: LargestRow[] = [];
  const measure = async (name: string, path: string, check: (body: unknown) => string | null, raw = false) => {
    await sleep(500);
    const beforeMB = processRssMB(pid);
    const reset = resetPeakRss(pid);
    const started = performance.now();
    const res = await fetch(base + path, { headers, signal: AbortSignal.timeout(300_000) });
    let bytes = 0;
    let body: unknown = null;
    if (raw) {
      for await (const chunk of res.body!) bytes += chunk.length;
    } else {
      const text = await res.text();
      bytes = Buffer.byteLength(text);
      body = JSON.parse(text);
    }
    const ms = performance.now() - started;
    const peakMB = reset ? peakRssMB(pid) : null;
    if (res.status !== 200) failures.push(`${name}: ${res.status}`);
    const problem = raw ? null : check(body);
    if (problem) failures.push(`${name}: ${problem}`);
    rows.push({
      name,
      request: `GET ${path}`,
      ms: round1(ms),
      answerKB: round1(bytes / 1024),
      beforeMB,
      peakMB,
      peakRatio: peakMB !== null && idleMB ? Math.round((peakMB / idleMB) * 100) / 100 : null,
    });
  };
  type FileBody = {
    file?: { content?: string; diff?: { is_binary?: boolean; hunks?: { changes: unknown[] }[] } | null };
  };
  const compare = (path: string) => `${api}/${v1}/compare_to/${v2}/?file=${encodeURIComponent(path)}&file_only=true`;
  const tooLarge = (body: unknown) =>
    (body as FileBody).file?.diff?.is_binary === true && (body as FileBody).file?.diff?.hunks?.length === 0
      ? null
      : 'expected the too-large answer (is_binary, no hunks)';
  const shown = (body: unknown) =>
    (body as FileBody).file?.diff?.hunks?.[0]?.changes.length === AT_LIMIT_LINES
      ? null
      : `expected ${AT_LIMIT_LINES} unchanged lines`;
  log('  browse: largest member: measuring ...');
  await measure('compare-largest-first (100 MiB, unchanged)', compare('data/largest.txt'), tooLarge);
  await measure('compare-largest-again', compare('data/largest.txt'), tooLarge);
  await measure(`compare-at-limit-first (${AT_LIMIT_LINES} lines, 8 MB)`, compare('data/at-limit.txt'), shown);
  await measure('compare-at-limit-again', compare('data/at-limit.txt'), shown);
  await measure(
    'browse-content-limit (16 MiB shown)',
    `${api}/${v2}/?file=data/content-limit.txt&file_only=true`,
    (body) => ((body as FileBody).file?.content?.length === CONTENT_LIMIT ? null : 'expected the whole content'),
  );
  await measure('browse-largest (no content)', `${api}/${v2}/?file=data/largest.txt&file_only=true`, (body) =>
    (body as FileBody).file?.content === '' ? null : 'expected no content',
  );
  await measure('download-largest (streamed)', `${api}/${v2}/download/?file=data/largest.txt`, () => null, true);
  return { report: { members, zipBytes, uploads, idleMB, rows }, server };
}

// --- the suite -----------------------------------------------------------------------------------

export type BrowseSuiteOptions = SuiteOptions<BrowseSettings>;

export async function runBrowseSuite(options: BrowseSuiteOptions): Promise<BrowseReport> {
  const { adminUrl, settings, log } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'addons-bench-browse-'));
  const scratch = adminUrl ? `addons_browse_scratch_${RUN}` : null;
  let server: RunningServer | undefined;
  try {
    let databaseUrl = '';
    if (adminUrl && scratch) {
      databaseUrl = await createScratchDatabase(adminUrl, scratch);
      log(`scratch database ${scratch}`);
    }
    // An empty DATABASE_URL counts as unset: embedded PGlite in DATA_DIR, which the CLI has to
    // release before the server opens it.
    const env = { DATA_DIR: dataDir, SECRET_KEY: BENCH_SECRET_KEY, DATABASE_URL: databaseUrl };
    const author = JSON.parse(
      await runCli(env, ['users:create', '--email', `browse-author-${RUN}@example.com`, '--api-key']),
    ) as { apiKey: ApiKey };
    const reviewer = JSON.parse(
      await runCli(env, [
        'users:create',
        '--email',
        `browse-reviewer-${RUN}@example.com`,
        '--permission',
        'Addons:ReviewUnlisted',
        '--session',
      ]),
    ) as { permissions: string[]; sessionToken: string };
    if (!reviewer.permissions.includes('Addons:ReviewUnlisted')) {
      throw new Error(`the reviewer lacks Addons:ReviewUnlisted: ${JSON.stringify(reviewer.permissions)}`);
    }
    const headers = { Authorization: `Bearer ${reviewer.sessionToken}`, Accept: 'application/json' };

    const guid = `browse-bench-${RUN}@browse-bench.example.com`;
    const v1 = extensionV1(guid, settings.files, settings.targetBytes);
    const v2 = extensionV2(v1);
    const [zip1, zip2] = await Promise.all([zipOf(v1.files), zipOf(v2.files)]);
    const largest = Object.fromEntries(
      [...v1.files]
        .sort((a, b) => b[1].length - a[1].length)
        .slice(0, 6)
        .map(([p, b]) => [p, b.length]),
    );
    log(
      `  browse: package 1.0: ${v1.files.size} files, ${totalBytes(v1.files)} bytes (zip ${zip1.length}); ` +
        `1.1: ${v2.files.size} files, ${v2.modified.length} modified, ${v2.added.length} added, ${v2.deleted.length} deleted`,
    );

    server = await startServer({ ...env, JOB_WORKERS: 'true' });
    options.track(server);
    const { base } = server;
    const pid = server.child.pid;
    const loadBefore = loadavg()[0];

    const uploads: BrowseReport['uploads'] = [];
    for (const [version, zip] of [
      ['1.0', zip1],
      ['1.1', zip2],
    ] as const) {
      log(`  browse: uploading ${version} and waiting until signed ...`);
      const outcome = await uploadUntilSigned(base, author.apiKey, guid, version, zip, settings.uploadTimeoutMs);
      uploads.push({ version, ms: Math.round(outcome.ms), polls: outcome.polls });
    }
    const addon = (await timed(base, `/api/v4/addons/addon/${encodeURIComponent(guid)}/`, headers)).body as {
      id: number;
    };
    const list = (await timed(base, `/api/v4/reviewers/addon/${addon.id}/versions/`, headers)).body as {
      id: number;
      version: string;
    }[];
    const idOf = (version: string) => {
      const found = list.find((v) => v.version === version);
      if (!found) throw new Error(`version ${version} not among ${JSON.stringify(list)}`);
      return found.id;
    };
    const ids = { addon: addon.id, v1: idOf('1.0'), v2: idOf('1.1') };
    await sleep(1000);
    const idleMB = processRssMB(pid);
    const idleWithChildrenMB = rssWithChildrenMB(pid);

    const api = `/api/v4/reviewers/addon/${ids.addon}/versions`;
    const q = (file: string) => `?file=${encodeURIComponent(file)}`;
    const detailPath = `/api/v4/addons/addon/${ids.addon}/versions/${ids.v2}/`;
    const browsePath = (version: number, file?: string) => `${api}/${version}/${file ? q(file) : ''}`;
    const comparePath = (from: number, to: number, file: string) => `${api}/${from}/compare_to/${to}/${q(file)}`;
    const failures: string[] = [];
    const notes: string[] = [];

    // Sequential: the baseline, then the first browse of each version and the stored tree.
    log('  browse: sequential baseline and first browses ...');
    for (let i = 0; i < 20; i++) await timed(base, detailPath, headers);
    const detailSamples: Sample[] = [];
    for (let i = 0; i < settings.sequentialRequests; i++) detailSamples.push(await timed(base, detailPath, headers));
    const baseline = sequentialStats('version-detail', `GET ${detailPath}`, detailSamples);
    const sequential: SequentialResult[] = [baseline];
    for (const [label, id] of [
      ['1.0', ids.v1],
      ['1.1', ids.v2],
    ] as const) {
      const first = await timed(base, browsePath(id), headers);
      sequential.push(
        sequentialStats(`browse-first-${label}`, `GET ${browsePath(id)} (tree computed)`, [first], baseline),
      );
    }
    const storedTree: Sample[] = [];
    for (let i = 0; i < settings.sequentialRequests; i++)
      storedTree.push(await timed(base, browsePath(ids.v2), headers));
    sequential.push(sequentialStats('browse-stored-tree', `GET ${browsePath(ids.v2)}`, storedTree, baseline));

    // The paths of 1.0 -> 1.1, split between the sequential sample and the load run (never both).
    const statusOf = (path: string) =>
      v2.added.includes(path) ? 'A' : v2.deleted.includes(path) ? 'D' : v2.modified.includes(path) ? 'M' : '';
    const large = [...v2.largeModified, ...v2.largeUnchanged];
    const modified = v2.modified.filter((p) => !large.includes(p));
    const unchanged = [...v1.files.keys()].filter((p) => statusOf(p) === '' && !large.includes(p));
    const halves = (paths: string[]) => [paths.filter((_, i) => i % 2 === 0), paths.filter((_, i) => i % 2 === 1)];
    const [seqModified, loadModified] = halves(modified);
    const [seqAdded, loadAdded] = halves(v2.added);
    const [seqDeleted, loadDeleted] = halves(v2.deleted);
    const seqChanged = [...seqModified, ...seqAdded, ...seqDeleted];
    const seqUnchanged = unchanged.slice(0, Math.max(0, settings.firstSequential - seqChanged.length));
    const loadUnchanged = unchanged.slice(seqUnchanged.length);
    const shuffle = (paths: string[], seed: number) => {
      const r = random(seed);
      return paths
        .map((p) => [r(), p] as const)
        .sort((a, b) => a[0] - b[0])
        .map(([, p]) => p);
    };
    const compareOnce = async (from: number, to: number, path: string, expected: string) => {
      const { ms, bytes, body } = await timed(base, comparePath(from, to, path), headers);
      const file = (body as CompareBody).file;
      if (file?.selected_file !== path || file.diff?.mode !== expected) {
        failures.push(`compare ${path}: expected status '${expected}', got ${JSON.stringify(file?.diff?.mode)}`);
      }
      return { ms, bytes };
    };

    // Warm the compare code on the reverse direction (other keys: 1.1 -> 1.0 is another pair).
    const reverse: Record<string, string> = { A: 'D', D: 'A', M: 'M', '': '' };
    for (const path of [...loadUnchanged.slice(-3), loadModified[loadModified.length - 1]]) {
      await compareOnce(ids.v2, ids.v1, path, reverse[statusOf(path)]);
    }

    log(`  browse: sequential first compares (${seqChanged.length + seqUnchanged.length + large.length} paths) ...`);
    const firsts = new Map<string, Sample>();
    for (const path of shuffle([...seqChanged, ...seqUnchanged], 7)) {
      firsts.set(path, await compareOnce(ids.v1, ids.v2, path, statusOf(path)));
    }
    for (const path of large) firsts.set(path, await compareOnce(ids.v1, ids.v2, path, statusOf(path)));
    const firstRow = (name: string, paths: string[], what: string) =>
      sequentialStats(
        name,
        `GET ${api}/${ids.v1}/compare_to/${ids.v2}/?file=… (${what})`,
        paths.map((p) => firsts.get(p)!),
        baseline,
      );
    sequential.push(
      firstRow('compare-first', [...seqChanged, ...seqUnchanged], `${seqChanged.length + seqUnchanged.length} paths`),
      firstRow('compare-first-modified', seqModified, 'status M'),
      firstRow('compare-first-added', seqAdded, 'status A'),
      firstRow('compare-first-deleted', seqDeleted, 'status D'),
      firstRow('compare-first-unchanged', seqUnchanged, "status ''"),
      firstRow('compare-first-large-modified', v2.largeModified, v2.largeModified.join(', ')),
      firstRow('compare-first-large-unchanged', v2.largeUnchanged, v2.largeUnchanged.join(', ')),
    );

    // Under load. The repeated compares ask for paths the sequential sample already compared.
    const byBytes = (paths: string[]) => [...paths].sort((a, b) => v2.files.get(a)!.length - v2.files.get(b)!.length);
    const modifiedScripts = byBytes(seqModified.filter((p) => p.endsWith('.js')));
    const typicalScript = modifiedScripts[Math.floor(modifiedScripts.length / 2)];
    const largestScript = byBytes(v2.largeModified).pop()!;
    const largeUnchanged = byBytes(v2.largeUnchanged).pop()!;
    const size = (p: string) => `${Math.round(v2.files.get(p)!.length / 1024)} KB`;
    const loadPaths = shuffle([...loadModified, ...loadAdded, ...loadDeleted, ...loadUnchanged], 11);
    const scenarios: Scenario[] = [
      { name: 'version-detail', method: 'GET', path: detailPath, headers },
      { name: 'browse-default', method: 'GET', path: browsePath(ids.v2), headers },
      {
        name: `browse-large-js (${size(largestScript)})`,
        method: 'GET',
        path: browsePath(ids.v2, largestScript),
        headers,
      },
      {
        name: `compare-repeated (${size(typicalScript)} M)`,
        method: 'GET',
        path: comparePath(ids.v1, ids.v2, typicalScript),
        headers,
      },
      {
        name: `compare-repeated-large-modified (${size(largestScript)})`,
        method: 'GET',
        path: comparePath(ids.v1, ids.v2, largestScript),
        headers,
      },
      {
        name: `compare-repeated-large-unchanged (${size(largeUnchanged)})`,
        method: 'GET',
        path: comparePath(ids.v1, ids.v2, largeUnchanged),
        headers,
      },
      {
        name: 'compare-first (each path once)',
        method: 'GET',
        path: loadPaths.map((p) => comparePath(ids.v1, ids.v2, p)),
        headers,
        once: true,
      },
    ];
    const countDiffs = () =>
      withClient(databaseUrl, async (c) =>
        Number((await c.query('select count(*) from package_file_diffs')).rows[0].count),
      );
    const load: (ScenarioResult & { responseKB: number | null })[] = [];
    for (const scenario of scenarios) {
      log(`  browse: ${scenario.name} ...`);
      // The answer's size (not for `once`: that request would be the path's first compare).
      const responseKB = scenario.once
        ? null
        : round1((await timed(base, scenario.path as string, headers)).bytes / 1024);
      const before = scenario.once && databaseUrl ? await countDiffs() : null;
      const result = { ...(await runScenario(base, scenario, pid, settings)), responseKB };
      load.push(result);
      if (scenario.once) {
        const stored = before === null ? null : (await countDiffs()) - before;
        notes.push(
          `compare-first under load: ${result.distinctPaths} never-compared paths of 1.0 -> 1.1 (M ${loadModified.length}, ` +
            `A ${loadAdded.length}, D ${loadDeleted.length}, unchanged ${loadUnchanged.length}), each requested once ` +
            `by ${result.connections} connections, in ${fmt(result.seconds ?? null, 1)} s` +
            (stored === null
              ? ' (embedded database: stored diffs not counted from outside the server)'
              : `; ${stored} diffs stored during the run (every request computed one)`),
        );
        if (stored !== null && stored !== result.distinctPaths) {
          failures.push(`compare-first: ${stored} diffs stored for ${result.distinctPaths} first compares`);
        }
      }
    }
    await sleep(2000);
    const endMB = processRssMB(pid);
    const endWithChildrenMB = rssWithChildrenMB(pid);
    const loadAfter = loadavg()[0];
    let largestMember: LargestReport | null = null;
    if (settings.largest) {
      const phase = await runLargestPhase({
        env,
        server,
        apiKey: author.apiKey,
        headers,
        settings,
        log,
        track: options.track,
        failures,
      });
      server = phase.server;
      largestMember = phase.report;
    }
    const [detail] = load;
    return {
      database: adminUrl ? 'postgres' : 'embedded',
      settings,
      package: {
        files: v1.files.size,
        bytes: totalBytes(v1.files),
        zipBytes: zip1.length,
        largest,
        v2: { files: v2.files.size, bytes: totalBytes(v2.files), zipBytes: zip2.length },
        changes: { modified: v2.modified.length, added: v2.added.length, deleted: v2.deleted.length },
      },
      uploads,
      ids,
      load: load.map((r) => ({
        ...r,
        rpsRatio: r.reqPerSec / detail.reqPerSec,
        p50Ratio: r.p50Ms / detail.p50Ms,
        p95Ratio: r.p95Ms / detail.p95Ms,
      })),
      sequential,
      memory: { idleMB, endMB, idleWithChildrenMB, endWithChildrenMB },
      machine: { cpus: availableParallelism(), loadBefore, loadAfter },
      largest: largestMember,
      notes,
      failures,
    };
  } catch (error) {
    logServerTail(server);
    throw error;
  } finally {
    await endSuite(server, options, dataDir);
    if (adminUrl && scratch) await dropScratchDatabase(adminUrl, scratch);
  }
}

function table(header: string[], body: string[][], left: number): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (row: string[]) =>
    row.map((c, i) => (i < left ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [header, widths.map((w) => '-'.repeat(w)), ...body].map(line).join('\n');
}

const short = (s: string, n = 70) => (s.length > n ? `${s.slice(0, n - 3)}...` : s);

/** The suite's tables: under load, then sequential, each against the version detail of the same kind. */
export function printBrowseReport(r: BrowseReport): void {
  const p = r.package;
  console.log(
    `\nbrowse (${r.database}): reviewer browse and compare of an unlisted extension, 1.0: ${p.files} files, ` +
      `${fmt(p.bytes / 1e6)} MB (zip ${fmt(p.zipBytes / 1e6)} MB); 1.1: ${p.v2.files} files ` +
      `(${p.changes.modified} modified, ${p.changes.added} added, ${p.changes.deleted} deleted)`,
  );
  console.log(
    `uploads, PUT to signed: ${r.uploads.map((u) => `${u.version} ${fmt(u.ms / 1000, 1)} s`).join(', ')}; ` +
      `add-on ${r.ids.addon}, versions ${r.ids.v1} and ${r.ids.v2}`,
  );
  console.log(
    `\nunder load (${r.settings.connections} connections, ${r.settings.durationSeconds} s; ratios to version-detail)\n`,
  );
  console.log(
    table(
      [
        'scenario',
        'request',
        'req/s',
        'vs detail',
        'p50 ms',
        'p50 vs',
        'p95 ms',
        'p95 vs',
        'KB',
        'RSS MB',
        'n',
        'non2xx',
      ],
      r.load.map((x) => [
        x.name,
        short(x.request),
        fmt(x.reqPerSec, 1),
        `${fmt(x.rpsRatio)}x`,
        fmt(x.p50Ms, 1),
        `${fmt(x.p50Ratio, 1)}x`,
        fmt(x.p95Ms, 1),
        `${fmt(x.p95Ratio, 1)}x`,
        fmt(x.responseKB, 1),
        fmt(x.serverRssMB, 0),
        String(x.requests),
        String(x.non2xx + x.errors),
      ]),
      2,
    ),
  );
  console.log('\nsequential single requests (ratios to version-detail, also sequential)\n');
  console.log(
    table(
      ['scenario', 'request', 'n', 'p50 ms', 'p50 vs', 'p95 ms', 'p95 vs', 'max ms', 'KB'],
      r.sequential.map((x) => [
        x.name,
        short(x.request),
        String(x.n),
        fmt(x.p50Ms, 1),
        `${fmt(x.p50Ratio, 1)}x`,
        fmt(x.p95Ms, 1),
        `${fmt(x.p95Ratio, 1)}x`,
        fmt(x.maxMs, 1),
        fmt(x.meanKB, 1),
      ]),
      2,
    ),
  );
  console.log(
    [
      '',
      ...r.notes,
      `server RSS: idle after the uploads ${fmt(r.memory.idleMB, 0)} MB, at the end (2 s after the last scenario) ` +
        `${fmt(r.memory.endMB, 0)} MB; with its linter worker (the table's RSS column) ` +
        `${fmt(r.memory.idleWithChildrenMB, 0)} and ${fmt(r.memory.endWithChildrenMB, 0)} MB; KB: mean answer size`,
      `machine: ${r.machine.cpus} cores, load average ${fmt(r.machine.loadBefore)} before the uploads and ` +
        `${fmt(r.machine.loadAfter)} after the last scenario`,
      ...r.failures.map((f) => `FAILED ${f}`),
    ].join('\n'),
  );
  if (r.largest) printLargest(r.largest);
}

function printLargest(l: LargestReport): void {
  const members = Object.entries(l.members)
    .map(([path, m]) => `${path} ${fmt(m.bytes / MiB, 1)} MiB, ${m.lines} lines`)
    .join('; ');
  console.log(
    `\nlargest member: 1.0 and 1.1 each hold ${members} (stored; upload ${fmt(l.zipBytes / MiB, 1)} MiB); ` +
      `PUT to signed ${l.uploads.map((u) => `${u.version} ${fmt(u.ms / 1000, 1)} s`).join(', ')}`,
  );
  console.log(
    `each request alone on a fresh server; peak RSS (VmHWM, reset before it) vs the same process idle ` +
      `(${fmt(l.idleMB, 0)} MB, after 20 version details and both trees)\n`,
  );
  console.log(
    table(
      ['request', 'path', 'ms', 'answer KB', 'RSS before', 'peak RSS MB', 'peak - before', 'peak vs idle'],
      l.rows.map((x) => [
        x.name,
        short(x.request, 60),
        fmt(x.ms, 1),
        fmt(x.answerKB, 1),
        fmt(x.beforeMB, 0),
        fmt(x.peakMB, 0),
        x.peakMB === null || x.beforeMB === null ? 'n/a' : fmt(x.peakMB - x.beforeMB, 0),
        x.peakRatio === null ? 'n/a' : `${fmt(x.peakRatio)}x`,
      ]),
      2,
    ),
  );
}
