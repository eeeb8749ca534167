import { createHash } from 'node:crypto';
import { AddonStatus, AddonType, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { AddonFile, Version } from '../src/catalogue/version.entity.js';
import { PackageContents, PackageFileDiff } from '../src/reviews/browse/contents.entity.js';
import type { StoredEntry } from '../src/reviews/browse/package-contents.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, type Caller } from './helpers/ratings.js';
import { attachPackage } from './helpers/packages.js';

/**
 * Reviewers browsing and comparing versions (issue 12, item 3; docs/compat-notes.md §4.5): the version
 * list, a version's tree and files, comparisons with per-file statuses and diffs, downloads, and
 * who may see each (the permission matrix), over REST v4 and GraphQL.
 */

let t: TestApp;
let reviewer: Caller;
let unlistedReviewer: Caller;
let user: Caller;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
  unlistedReviewer = await caller(t, { permission: ['Addons:ReviewUnlisted'] });
  user = await caller(t);
}, 120_000);
afterAll(() => t?.close());

const gql = (who: Caller, query: string, variables: Record<string, unknown> = {}) =>
  t.http.post('/graphql').set('Authorization', `Bearer ${who.token}`).send({ query, variables });

const MANIFEST_1 = '{\n  "manifest_version": 2,\n  "name": "Beastify",\n  "version": "1.0"\n}\n';
const MANIFEST_2 = '{\n  "manifest_version": 2,\n  "name": "Beastify",\n  "version": "2.0"\n}\n';
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const V1 = {
  'manifest.json': MANIFEST_1,
  'README.md': '# beastify\n',
  'icons/icon.png': PNG,
  'lib/old.js': 'console.log("old");\n',
  'lib/deep/gone.js': 'gone();\n',
  'content/main.js': Array.from({ length: 20 }, (_, i) => `line ${i + 1};`).join('\n') + '\n',
};
const V2 = {
  'manifest.json': MANIFEST_2,
  'README.md': '# beastify\n',
  'icons/icon.png': Buffer.concat([PNG, Buffer.from([1, 2, 3])]),
  'lib/new.min.js': 'a=1;b=2',
  'content/main.js':
    Array.from({ length: 20 }, (_, i) => (i === 9 ? 'line ten changed;' : `line ${i + 1};`)).join('\n') + '\n',
};

/** Stores a package for the version's file and its validation; returns the package's SHA-256. */
const attach = async (version: Version, files: Record<string, string | Buffer>, minified: string[] = []) =>
  (await attachPackage(t, version, files, { minified })).sha256;

async function addonWithPackages() {
  const author = await caller(t);
  const addon = await createAddon(t.em(), {
    status: AddonStatus.NOMINATED,
    authors: [{ id: author.id }],
    versions: [
      { version: '1.0', fileStatus: FileStatus.APPROVED },
      { version: '2.0', fileStatus: FileStatus.AWAITING_REVIEW },
      { version: '3.0', channel: Channel.UNLISTED },
    ],
  });
  const [v1, v2, unlisted] = await t.em().find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
  const h1 = await attach(v1, V1);
  const h2 = await attach(v2, V2, ['lib/new.min.js']);
  await attach(unlisted, V2);
  const base = `/api/v4/reviewers/addon/${addon.id}/versions/`;
  return { addon, author, v1, v2, unlisted, base, h1, h2 };
}

describe('version list', () => {
  it('lists versions newest first, unlisted ones only for unlisted reviewers and authors', async () => {
    const { addon, author, v1, v2, unlisted, base } = await addonWithPackages();
    const listed = await call(t, 'get', base, reviewer);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      { id: v2.id, channel: 'listed', version: '2.0' },
      { id: v1.id, channel: 'listed', version: '1.0' },
    ]);
    const all = [{ id: unlisted.id, channel: 'unlisted', version: '3.0' }, ...listed.body];
    expect((await call(t, 'get', base, unlistedReviewer)).body).toEqual(all);
    expect((await call(t, 'get', base, author)).body).toEqual(all);
    expect((await call(t, 'get', base, user)).status).toBe(403);
    expect((await call(t, 'get', base, null)).status).toBe(401);
    expect((await call(t, 'get', '/api/v4/reviewers/addon/999999999/versions/', reviewer)).status).toBe(404);
    expect((await call(t, 'get', '/api/v4/reviewers/addon/abc/versions/', reviewer)).status).toBe(404);
    expect((await call(t, 'get', base.replace('/v4/', '/v3/'), reviewer)).status).toBe(404);
    // GraphQL: the same list and rule.
    const q = `query($addon: String!) { reviewerVersions(addon: $addon) { id version channel } }`;
    const res = await gql(reviewer, q, { addon: String(addon.id) });
    expect(res.body.data.reviewerVersions.map((v: { id: number }) => v.id)).toEqual([v2.id, v1.id]);
    expect((await gql(user, q, { addon: String(addon.id) })).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('browse', () => {
  it("shows the tree, the manifest by default, and the version's validation", async () => {
    const { addon, v1, base } = await addonWithPackages();
    const res = await call(t, 'get', `${base}${v1.id}/`, reviewer);
    expect(res.status).toBe(200);
    const file = await t.em().findOneOrFail(AddonFile, { version: v1.id });
    expect(res.body).toMatchObject({
      id: v1.id,
      channel: 'listed',
      version: '1.0',
      addon: { id: addon.id, slug: addon.slug, name: { 'en-US': addon.name!['en-US'] } },
      has_been_validated: true,
      uses_unknown_minified_code: false,
    });
    expect(res.body.addon.icon_url).toMatch(/^http:\/\/addons\.test\//);
    expect(res.body.validation_url).toMatch(/^http:\/\/addons\.test\/developers\/upload\/[0-9a-f]{32}$/);
    expect(res.body.validation_url_json).toBe(`${res.body.validation_url}/json`);
    const report = await t.http.get(new URL(res.body.validation_url_json).pathname);
    expect(report.status).toBe(200);
    expect(report.body.metadata.listed).toBe(true);
    expect(res.body.file).toEqual({
      id: file.id,
      content: MANIFEST_1,
      selected_file: 'manifest.json',
      download_url: `http://addons.test${base}${v1.id}/download/?file=manifest.json`,
      mimetype: 'application/json',
      sha256: createHash('sha256').update(MANIFEST_1).digest('hex'),
      size: Buffer.byteLength(MANIFEST_1),
      filename: 'manifest.json',
      mime_category: 'text',
      uses_unknown_minified_code: false,
    });
    // Directories before their children, names sorted, depth from 0; an object keyed by path.
    expect(Object.keys(res.body.file_entries)).toEqual([
      'README.md',
      'content',
      'content/main.js',
      'icons',
      'icons/icon.png',
      'lib',
      'lib/deep',
      'lib/deep/gone.js',
      'lib/old.js',
      'manifest.json',
    ]);
    expect(res.body.file_entries['lib/deep/gone.js']).toEqual({
      depth: 2,
      filename: 'gone.js',
      path: 'lib/deep/gone.js',
      mime_category: 'text',
    });
    expect(res.body.file_entries.icons.mime_category).toBe('directory');
    expect(res.body.file_entries['icons/icon.png'].mime_category).toBe('image');
  });

  it('selects a file with ?file=, returns only it with file_only, and 404s unknown files', async () => {
    const { v1, v2, base } = await addonWithPackages();
    const png = await call(t, 'get', `${base}${v1.id}/?file=icons/icon.png`, reviewer);
    expect(png.body.file).toMatchObject({ selected_file: 'icons/icon.png', content: '', mimetype: 'image/png' });
    const dir = await call(t, 'get', `${base}${v1.id}/?file=lib`, reviewer);
    expect(dir.body.file).toMatchObject({
      content: '',
      download_url: null,
      mime_category: 'directory',
      mimetype: 'application/octet-stream',
      sha256: null,
      size: null,
    });
    const only = await call(t, 'get', `${base}${v1.id}/?file=README.md&file_only=true`, reviewer);
    expect(Object.keys(only.body).sort()).toEqual(['file', 'id']);
    expect(only.body.file.content).toBe('# beastify\n');
    const minified = await call(t, 'get', `${base}${v2.id}/?file=lib/new.min.js`, reviewer);
    expect(minified.body.uses_unknown_minified_code).toBe(true);
    expect(minified.body.file.uses_unknown_minified_code).toBe(true);
    const missing = await call(t, 'get', `${base}${v1.id}/?file=nope.js`, reviewer);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: 'File not found' });
    const long = await call(t, 'get', `${base}${v1.id}/?file=${'a/'.repeat(600)}`, reviewer);
    expect(long.status).toBe(404);
  });

  it('downloads a file as an attachment, with the same access', async () => {
    const { v1, unlisted, base } = await addonWithPackages();
    const res = await t.http
      .get(`${base}${v1.id}/download/?file=content/main.js`)
      .set('Authorization', `Bearer ${reviewer.token}`)
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe("attachment; filename*=UTF-8''main.js");
    expect(Buffer.from(res.body).toString()).toBe(V1['content/main.js']);
    expect((await call(t, 'get', `${base}${v1.id}/download/?file=lib`, reviewer)).status).toBe(404);
    expect((await call(t, 'get', `${base}${v1.id}/download/`, reviewer)).status).toBe(404);
    expect((await call(t, 'get', `${base}${unlisted.id}/download/?file=manifest.json`, reviewer)).status).toBe(403);
    expect((await call(t, 'get', `${base}${v1.id}/download/?file=manifest.json`, null)).status).toBe(401);
  });

  it('follows the permission matrix: channel reviewers and authors', async () => {
    const { author, v1, unlisted, base } = await addonWithPackages();
    const matrix: [Caller | null, string, number][] = [
      [null, `${base}${v1.id}/`, 401],
      [user, `${base}${v1.id}/`, 403],
      [reviewer, `${base}${v1.id}/`, 200],
      [unlistedReviewer, `${base}${v1.id}/`, 403],
      [author, `${base}${v1.id}/`, 200],
      [reviewer, `${base}${unlisted.id}/`, 403],
      [unlistedReviewer, `${base}${unlisted.id}/`, 200],
      [author, `${base}${unlisted.id}/`, 200],
      [reviewer, `${base}999999999/`, 404],
      [reviewer, `${base}x1/`, 404],
      [reviewer, `${base}${unlisted.id}/compare_to/${v1.id}/`, 403],
      [unlistedReviewer, `${base}${v1.id}/compare_to/${unlisted.id}/`, 403],
      [author, `${base}${v1.id}/compare_to/${unlisted.id}/`, 200],
      [reviewer, `${base}${v1.id}/compare_to/999999999/`, 404],
    ];
    for (const [who, path, status] of matrix) {
      expect([path, (await call(t, 'get', path, who)).status]).toEqual([path, status]);
    }
    // A deleted version is gone for reviewers without Addons:ViewDeleted.
    await t.em().nativeUpdate(Version, { id: v1.id }, { deleted: true });
    expect((await call(t, 'get', `${base}${v1.id}/`, reviewer)).status).toBe(404);
    const viewer = await caller(t, { permission: ['Addons:Review', 'Addons:ViewDeleted'] });
    expect((await call(t, 'get', `${base}${v1.id}/`, viewer)).status).toBe(200);
  });
});

describe('compare', () => {
  it('gives every path its status, deleted files with null fields, and the selected diff', async () => {
    const { v1, v2, base, h1, h2 } = await addonWithPackages();
    const res = await call(t, 'get', `${base}${v1.id}/compare_to/${v2.id}/?file=content/main.js`, reviewer);
    expect(res.status).toBe(200);
    const files = await t.em().find(AddonFile, { version: { $in: [v1.id, v2.id] } }, { orderBy: { id: 'asc' } });
    expect(res.body.id).toBe(v2.id);
    expect(res.body.base_file).toEqual({ id: files[0].id });
    expect(res.body.file.base_file).toEqual({ id: files[0].id });
    expect(res.body.file.content).toBeUndefined();
    const status = Object.fromEntries(
      Object.entries(res.body.file_entries as Record<string, { status: string }>).map(([p, e]) => [p, e.status]),
    );
    expect(status).toEqual({
      'README.md': '',
      content: '',
      'content/main.js': 'M',
      icons: '',
      'icons/icon.png': 'M',
      lib: '',
      'lib/deep': '',
      'lib/deep/gone.js': 'D',
      'lib/new.min.js': 'A',
      'lib/old.js': 'D',
      'manifest.json': 'M',
    });
    expect(res.body.file_entries['lib/deep']).toEqual({
      depth: 1,
      filename: 'deep',
      path: 'lib/deep',
      mime_category: 'directory',
      status: '',
    });
    expect(res.body.file_entries['lib/old.js']).toEqual({
      depth: 1,
      filename: 'old.js',
      path: 'lib/old.js',
      mime_category: null,
      status: 'D',
    });
    const diff = res.body.file.diff;
    expect(diff).toMatchObject({
      path: 'content/main.js',
      old_path: 'content/main.js',
      size: Buffer.byteLength(V2['content/main.js']),
      lines_added: 1,
      lines_deleted: 1,
      is_binary: false,
      mode: 'M',
      parent: h1,
      hash: h2,
      old_ending_new_line: true,
      new_ending_new_line: true,
    });
    expect(diff.hunks).toHaveLength(1);
    const [hunk] = diff.hunks;
    expect(hunk).toMatchObject({ header: '@@ -7,7 +7,7 @@', old_start: 7, new_start: 7, old_lines: 7, new_lines: 7 });
    expect(hunk.changes[3]).toEqual({
      content: 'line 10;',
      type: 'delete',
      old_line_number: 10,
      new_line_number: -1,
    });
    expect(hunk.changes[4]).toEqual({
      content: 'line ten changed;',
      type: 'insert',
      old_line_number: -1,
      new_line_number: 10,
    });
    expect(hunk.changes[0]).toEqual({ content: 'line 7;', type: 'normal', old_line_number: 7, new_line_number: 7 });
  });

  it('renders unmodified, added, deleted and binary files as the original', async () => {
    const { v1, v2, base } = await addonWithPackages();
    const compare = (file: string) =>
      call(t, 'get', `${base}${v1.id}/compare_to/${v2.id}/?file=${encodeURIComponent(file)}`, reviewer);
    const same = (await compare('README.md')).body.file.diff;
    expect(same).toMatchObject({ mode: '', lines_added: 0, lines_deleted: 0 });
    // The original's made-up hunk: the file split at \n, its final newline giving an empty last line.
    expect(same.hunks).toEqual([
      {
        header: '@@ -0 +0 @@',
        old_start: 0,
        new_start: 0,
        old_lines: 2,
        new_lines: 2,
        changes: [
          { content: '# beastify', type: 'normal', old_line_number: 1, new_line_number: 1 },
          { content: '', type: 'normal', old_line_number: 2, new_line_number: 2 },
        ],
      },
    ]);
    const added = await compare('lib/new.min.js');
    expect(added.body.file.diff).toMatchObject({ mode: 'A', lines_added: 1, new_ending_new_line: false });
    expect(added.body.file.diff.hunks[0]).toMatchObject({ header: '@@ -0,0 +1 @@', old_start: 0, new_start: 1 });
    // libgit2 names the marker after an inserted line lacking its newline delete-eofnl.
    expect(added.body.file.diff.hunks[0].changes.map((c: { type: string }) => c.type)).toEqual([
      'insert',
      'delete-eofnl',
    ]);
    expect(added.body.file.diff.hunks[0].changes[1]).toEqual({
      content: '\n\\ No newline at end of file',
      type: 'delete-eofnl',
      old_line_number: -1,
      new_line_number: 1,
    });
    expect(added.body.uses_unknown_minified_code).toBe(true);
    const deleted = await compare('lib/old.js');
    expect(deleted.body.file).toMatchObject({ download_url: null, sha256: null, size: null, mime_category: null });
    expect(deleted.body.file.diff).toMatchObject({ mode: 'D', lines_deleted: 1, size: 0 });
    expect(deleted.body.file.diff.hunks[0].changes[0]).toEqual({
      content: 'console.log("old");',
      type: 'delete',
      old_line_number: 1,
      new_line_number: -1,
    });
    const binary = (await compare('icons/icon.png')).body.file.diff;
    expect(binary).toMatchObject({ is_binary: true, mode: 'M', hunks: [], lines_added: 0, lines_deleted: 0 });
    const dir = await compare('lib');
    expect(dir.body.file.diff).toBeNull();
    expect((await compare('nope')).status).toBe(404);
    // The manifest by default.
    const byDefault = await call(t, 'get', `${base}${v1.id}/compare_to/${v2.id}/`, reviewer);
    expect(byDefault.body.file.selected_file).toBe('manifest.json');
    expect(byDefault.body.file.diff.lines_added).toBe(1);
  });

  it('stores a computed diff and reuses it', async () => {
    const { v1, v2, base, h1, h2 } = await addonWithPackages();
    const path = `${base}${v1.id}/compare_to/${v2.id}/?file=manifest.json`;
    const first = await call(t, 'get', path, reviewer);
    // Keyed by the packages' bytes: identical packages of other add-ons share it.
    const key = { parentHash: `sha256:${h1}`, hash: `sha256:${h2}`, path: 'manifest.json' };
    const stored = await t.em().find(PackageFileDiff, key);
    expect(stored).toHaveLength(1);
    // The stored diff is what later requests answer with (marked here to tell them apart).
    const marked = { ...(stored[0].diff as object), lines_added: 99 };
    await t.em().nativeUpdate(PackageFileDiff, { id: stored[0].id }, { diff: marked });
    const second = await call(t, 'get', path, reviewer);
    expect(first.body.file.diff.lines_added).toBe(1);
    expect(second.body.file.diff.lines_added).toBe(99);
  });

  it("reads a file from where the stored tree says it is, and 404s when the package's bytes changed", async () => {
    const { v1, base, h1 } = await addonWithPackages();
    const browse = (file: string) => call(t, 'get', `${base}${v1.id}/?file=${file}&file_only=true`, reviewer);
    expect((await browse('content/main.js')).body.file.content).toBe(V1['content/main.js']);
    const hash = `sha256:${h1}`;
    const stored = (await t.em().findOneOrFail(PackageContents, { hash })).entries as StoredEntry[];
    // Shared by every package with these bytes: put back below.
    const setEntries = (entries: StoredEntry[]) =>
      t
        .em()
        .getConnection()
        .execute('update package_contents set entries = ?::jsonb where hash = ?', [JSON.stringify(entries), hash]);
    const main = stored.find((e) => e.path === 'content/main.js')!;
    expect(main.at).toMatchObject({ method: 8, size: V1['content/main.js'].length });
    expect(stored.find((e) => e.path === 'lib')!.at).toBeUndefined();

    // A tree stored before places were recorded: the whole package is read, as before.
    await setEntries(stored.map(({ at: _at, ...e }) => e));
    expect((await browse('README.md')).body.file.content).toBe('# beastify\n');
    // Bytes that are not the member's (a wrong place, or the stored package rewritten): 404.
    await setEntries(stored.map((e) => (e.at ? { ...e, at: { ...e.at, start: e.at.start + 1 } } : e)));
    const moved = await browse('README.md');
    expect(moved.status).toBe(404);
    expect(moved.body).toEqual({ detail: 'File not found' });
    await setEntries(stored);
    expect((await browse('README.md')).body.file.content).toBe('# beastify\n');
    const file = await t.em().findOneOrFail(AddonFile, { version: v1.id });
    await t.app.services.files.put(file.storageKey!, Buffer.from('not the package'));
    expect((await browse('README.md')).status).toBe(404);
    const download = await call(t, 'get', `${base}${v1.id}/download/?file=README.md`, reviewer);
    expect(download.status).toBe(404);
  });

  it('serves the same data through GraphQL with the same rules', async () => {
    const { addon, v1, v2, unlisted } = await addonWithPackages();
    const q = `query($addon: String!, $base: Int!, $v: Int!, $file: String) {
      compareVersions(addon: $addon, baseVersionId: $base, versionId: $v, file: $file) {
        version { id } base { id } baseFile { id } hasBeenValidated
        entries { path status category }
        selected { entry { path } exists downloadUrl usesUnknownMinifiedCode }
        diff { mode linesAdded hunks { header changes { type oldLineNumber newLineNumber } } }
      }
    }`;
    const vars = { addon: String(addon.id), base: v1.id, v: v2.id, file: 'lib/old.js' };
    const res = await gql(reviewer, q, vars);
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data.compareVersions;
    expect(data.selected).toEqual({
      entry: { path: 'lib/old.js' },
      exists: false,
      downloadUrl: null,
      usesUnknownMinifiedCode: false,
    });
    expect(data.diff.mode).toBe('D');
    expect(data.diff.hunks[0].changes[0]).toEqual({ type: 'delete', oldLineNumber: 1, newLineNumber: -1 });
    expect(data.entries.find((e: { path: string }) => e.path === 'lib/old.js')).toEqual({
      path: 'lib/old.js',
      status: 'D',
      category: null,
    });
    const denied = await gql(reviewer, q, { ...vars, v: unlisted.id });
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const browse = await gql(
      reviewer,
      `query($addon: String!, $v: Int!) { browseVersion(addon: $addon, versionId: $v) { selected { content entry { path mimetype } } } }`,
      { addon: addon.slug, v: v1.id },
    );
    expect(browse.body.data.browseVersion.selected).toEqual({
      content: MANIFEST_1,
      entry: { path: 'manifest.json', mimetype: 'application/json' },
    });
  });
});

describe('file validation', () => {
  const validationPath = (addonId: number, fileId: number | string, version = 'v4') =>
    `/api/${version}/reviewers/addon/${addonId}/file/${fileId}/validation/`;
  const fileOf = (version: Version) => t.em().findOneOrFail(AddonFile, { version: version.id });

  it("answers the linter's results of a file's upload to reviewers of its channel, as the original", async () => {
    const { addon, author, v1, unlisted } = await addonWithPackages();
    const listedFile = await fileOf(v1);
    const unlistedFile = await fileOf(unlisted);
    const url = validationPath(addon.id, listedFile.id);
    const res = await call(t, 'get', url, reviewer);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['validation']);
    expect(res.body.validation).toEqual({
      success: true,
      errors: 0,
      warnings: 0,
      notices: 0,
      compatibility_summary: { errors: 0, warnings: 0, notices: 0 },
      detected_type: 'extension',
      ending_tier: 5,
      metadata: { listed: true, is_webextension: true, unknownMinifiedFiles: [] },
      messages: [],
      message_tree: {},
    });
    // The same results as the upload's JSON report.
    const browse = await call(t, 'get', `/api/v4/reviewers/addon/${addon.id}/versions/${v1.id}/`, reviewer);
    const report = await t.http.get(new URL(browse.body.validation_url_json).pathname);
    expect(res.body.validation).toEqual(report.body);

    // Unlisted: unlisted reviewers only; a listed file: reviewers of the add-on's type only.
    expect((await call(t, 'get', validationPath(addon.id, unlistedFile.id), unlistedReviewer)).status).toBe(200);
    const denied = await call(t, 'get', validationPath(addon.id, unlistedFile.id), reviewer);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await call(t, 'get', url, unlistedReviewer)).status).toBe(403);
    const viewer = await caller(t, { permission: ['ReviewerTools:View'] });
    expect((await call(t, 'get', url, viewer)).status).toBe(403);
    // Any kind of reviewer permission is needed before anything is looked up (the original's
    // AllowAnyKindOfReviewer): an author who is not a reviewer, or any other user, gets 403.
    expect((await call(t, 'get', url, author)).status).toBe(403);
    expect((await call(t, 'get', url, user)).status).toBe(403);
    expect((await call(t, 'get', validationPath(999_999_999, listedFile.id), user)).status).toBe(403);
    const anonymous = await call(t, 'get', url, null);
    expect(anonymous.status).toBe(401);
    expect((await call(t, 'get', validationPath(999_999_999, listedFile.id), null)).status).toBe(401);
  });

  it('answers 404 for an unknown add-on, a file of another add-on, an unknown file or one not validated', async () => {
    const { addon, v1 } = await addonWithPackages();
    const other = await addonWithPackages();
    const file = await fileOf(v1);
    const otherFile = await fileOf(other.v1);
    expect((await call(t, 'get', validationPath(addon.id, otherFile.id), reviewer)).status).toBe(404);
    expect((await call(t, 'get', validationPath(other.addon.id, otherFile.id), reviewer)).status).toBe(200);
    expect((await call(t, 'get', validationPath(999_999_999, file.id), reviewer)).status).toBe(404);
    expect((await call(t, 'get', validationPath(addon.id, 999_999_999), reviewer)).status).toBe(404);
    expect((await call(t, 'get', validationPath(addon.id, 'abc'), reviewer)).status).toBe(404);
    expect((await call(t, 'get', validationPath(addon.id, file.id, 'v3'), reviewer)).status).toBe(404);
    const bare = await createAddon(t.em(), { status: AddonStatus.NOMINATED, versions: [{ version: '1.0' }] });
    const [bareVersion] = await t.em().find(Version, { addon: bare.id });
    const unvalidated = await call(t, 'get', validationPath(bare.id, (await fileOf(bareVersion)).id), reviewer);
    expect(unvalidated.status).toBe(404);
  });

  it('lets theme reviewers, not add-on reviewers, read a static theme file, and serves GraphQL the same', async () => {
    const theme = await createAddon(t.em(), { type: AddonType.STATICTHEME, status: AddonStatus.NOMINATED });
    const [version] = await t.em().find(Version, { addon: theme.id });
    await attach(version, { 'manifest.json': MANIFEST_1 });
    const file = await fileOf(version);
    const themeReviewer = await caller(t, { permission: ['Addons:ThemeReview'] });
    expect((await call(t, 'get', validationPath(theme.id, file.id), themeReviewer)).status).toBe(200);
    expect((await call(t, 'get', validationPath(theme.id, file.id), reviewer)).status).toBe(403);

    const q = `query($addon: String!, $fileId: Int!) { fileValidation(addon: $addon, fileId: $fileId) }`;
    const vars = { addon: String(theme.id), fileId: file.id };
    const res = await gql(themeReviewer, q, vars);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.fileValidation).toMatchObject({ success: true, errors: 0, detected_type: 'extension' });
    expect((await gql(reviewer, q, vars)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql(user, q, vars)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const missing = await gql(themeReviewer, q, { ...vars, fileId: 999_999_999 });
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
