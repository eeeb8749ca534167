import { signJwt } from '../src/auth/jwt.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { Version } from '../src/catalogue/version.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { attachPackage } from './helpers/packages.js';
import { call, caller, clearThrottles, type Caller } from './helpers/ratings.js';
import { extension } from './helpers/signing.js';

/**
 * API v5 as today's clients read it (issue 25, parts 3-4): one request per route family under
 * /api/v5/ with the points of its v5 shape, then one test per field addons-frontend or
 * addons-code-manager reads that v5 answered differently from the original (neither front-end is
 * published on the npm registry, so these tests stand for running them).
 */

type Json = Record<string, any>;

let t: TestApp;
let reviewer: Caller;
let author: Caller;
let fan: Caller;
let addon: Addon;
let v1: Version;
let v2: Version;
let file2: number;

const MANIFEST = (v: string) => `{\n  "manifest_version": 2,\n  "name": "Beastify",\n  "version": "${v}"\n}\n`;
const LINTER_MESSAGE = {
  uid: 'a1b2c3',
  id: ['UNSAFE_VAR_ASSIGNMENT'],
  type: 'warning',
  message: 'Unsafe assignment to innerHTML',
  description: ['Due to both security and performance concerns, innerHTML may not be set.'],
  file: 'content/main.js',
  line: 2,
  column: 5,
  tier: 3,
  context: null,
  for_appversions: null,
};

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  reviewer = await caller(t, { permission: ['Addons:Review'] });
  author = await caller(t, { username: 'v5-author', name: 'V5 Author' });
  fan = await caller(t, { username: 'v5-fan' });
  addon = await createAddon(t.em(), {
    slug: 'v5-beastify',
    status: AddonStatus.PUBLIC,
    authors: [{ id: author.id }],
    name: { 'en-US': 'Beastify', fr: 'Bêtifier' },
    homepage: { 'en-US': 'https://example.com/beastify' },
    eula: { 'en-US': 'Use it kindly.', fr: 'Utilisez-le gentiment.' },
    previews: 1,
    versions: [
      { version: '1.0', fileStatus: FileStatus.APPROVED },
      { version: '2.0', fileStatus: FileStatus.APPROVED },
    ],
  } as never);
  [v1, v2] = await t.em().find(Version, { addon: addon.id }, { orderBy: { id: 'asc' } });
  await attachPackage(t, v1, { 'manifest.json': MANIFEST('1.0'), 'content/main.js': 'one();\n' });
  const stored = await attachPackage(
    t,
    v2,
    { 'manifest.json': MANIFEST('2.0'), 'content/main.js': 'one();\ntwo();\n' },
    { messages: [LINTER_MESSAGE] },
  );
  file2 = stored.fileId;
  await clearThrottles(t);
  const rated = await call(t, 'post', '/api/v5/ratings/rating/', fan, {
    addon: addon.id,
    version: v2.id,
    score: 4,
    body: 'Does what it says.',
  });
  expect(rated.status).toBe(201);
}, 120_000);
afterAll(() => t?.close());

const get = (path: string, who: Caller | null = null) => call(t, 'get', path, who);
const local = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};
const browseBase = () => `/api/v5/reviewers/addon/${addon.id}/versions/`;

describe('every route family answers under /api/v5/ with the v5 shape', () => {
  it('catalogue: add-on detail, versions, search, autocomplete', async () => {
    const detail = await get(`/api/v5/addons/addon/${addon.slug}/?lang=fr`);
    expect(detail.status).toBe(200);
    const body = detail.body as Json;
    expect(body.name).toEqual({ fr: 'Bêtifier' });
    expect(body.summary).toEqual({ 'en-US': expect.any(String), _default: 'en-US', fr: null });
    expect(body.homepage).toEqual({
      url: { 'en-US': 'https://example.com/beastify', _default: 'en-US', fr: null },
      outgoing: { 'en-US': expect.stringContaining('example.com'), _default: 'en-US', fr: null },
    });
    expect(body.categories).toEqual([]);
    expect(body.promoted).toEqual([]);
    expect(body.previews[0]).toMatchObject({ position: 0 });
    const file = body.current_version.file;
    expect(file).toMatchObject({ id: expect.any(Number), status: 'public', is_mozilla_signed_extension: false });
    expect(file).not.toHaveProperty('platform');
    expect(body.current_version).not.toHaveProperty('files');
    expect(body.current_version.license).toMatchObject({ slug: expect.any(String), is_custom: false });

    const versions = await get(`/api/v5/addons/addon/${addon.slug}/versions/?lang=en-US`);
    expect(versions.status).toBe(200);
    expect(versions.body.results.map((v: Json) => v.version)).toEqual(['2.0', '1.0']);
    expect(versions.body.results[0].file.id).toEqual(expect.any(Number));
    expect(versions.body.results[0].license).not.toHaveProperty('text');
    const version = await get(`/api/v5/addons/addon/${addon.slug}/versions/${v2.id}/?lang=en-US`);
    expect(version.status).toBe(200);
    expect(version.body.license).toHaveProperty('text');

    const search = await get('/api/v5/addons/search/?q=beastify&lang=en-US');
    expect(search.status).toBe(200);
    const found = search.body.results.find((r: Json) => r.id === addon.id);
    expect(found).toMatchObject({ name: { 'en-US': 'Beastify' }, promoted: [], categories: [] });
    expect(found.current_version.file.id).toEqual(expect.any(Number));
    expect(typeof found._score).toBe('number');

    const suggestions = await get('/api/v5/addons/autocomplete/?q=beastify&lang=en-US');
    expect(suggestions.status).toBe(200);
    expect(suggestions.body.results[0]).toMatchObject({
      id: addon.id,
      name: { 'en-US': 'Beastify' },
      promoted: [],
      type: 'extension',
    });
  });

  it('accounts: profile, account, notifications', async () => {
    const profile = await get('/api/v5/accounts/profile/', author);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ id: author.id, username: 'v5-author', site_status: { read_only: false } });
    const account = await get(`/api/v5/accounts/account/${author.id}/`);
    expect(account.status).toBe(200);
    expect(account.body).toMatchObject({ id: author.id, is_addon_developer: true, num_addons_listed: 1 });
    expect(account.body).not.toHaveProperty('email');
    const notifications = await get(`/api/v5/accounts/account/${author.id}/notifications/`, author);
    expect(notifications.status).toBe(200);
    expect(notifications.body).toContainEqual({ name: 'reply', enabled: true, mandatory: false });
    expect(notifications.body.map((n: Json) => n.name)).not.toContain('dev_thanks');
  });

  it('collections: create, list, detail, add-ons', async () => {
    const base = `/api/v5/accounts/account/${author.id}/collections/`;
    const created = await call(t, 'post', base, author, { name: { 'en-US': 'Picks' }, slug: 'v5-picks' });
    expect(created.status).toBe(201);
    expect(created.body.name).toEqual({ 'en-US': 'Picks' });
    expect((await call(t, 'post', `${base}v5-picks/addons/`, author, { addon: addon.id })).status).toBe(201);
    const list = await get(base, author);
    expect(list.status).toBe(200);
    expect(list.body.results[0]).toMatchObject({ slug: 'v5-picks', addon_count: 1 });
    const detail = await get(`${base}v5-picks/?lang=en-US`);
    expect([detail.status, detail.body.name]).toEqual([200, { 'en-US': 'Picks' }]);
    const addons = await get(`${base}v5-picks/addons/?lang=en-US`);
    expect(addons.status).toBe(200);
    expect(addons.body.results[0]).not.toHaveProperty('downloads');
    expect(addons.body.results[0].addon).toMatchObject({ id: addon.id, name: { 'en-US': 'Beastify' } });
  });

  it('ratings: list, detail, create', async () => {
    const list = await get(`/api/v5/ratings/rating/?addon=${addon.id}&show_grouped_ratings=true&lang=en-US`);
    expect(list.status).toBe(200);
    expect(list.body.grouped_ratings).toEqual({ 1: 0, 2: 0, 3: 0, 4: 1, 5: 0 });
    const [rating] = list.body.results;
    expect(rating).toMatchObject({ score: 4, is_deleted: false, body: 'Does what it says.', version: { id: v2.id } });
    expect(rating).not.toHaveProperty('rating');
    expect(rating).not.toHaveProperty('title');
    const detail = await get(`/api/v5/ratings/rating/${rating.id}/`);
    expect([detail.status, detail.body.id]).toEqual([200, rating.id]);
    await clearThrottles(t);
    const created = await call(t, 'post', '/api/v5/ratings/rating/', reviewer, {
      addon: addon.id,
      version: v2.id,
      score: 5,
    });
    expect([created.status, created.body.score]).toEqual([201, 5]);
  });

  it('reviewers: version list, browse, compare, draft comments, canned responses', async () => {
    const list = await get(browseBase(), reviewer);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      { id: v2.id, channel: 'listed', version: '2.0' },
      { id: v1.id, channel: 'listed', version: '1.0' },
    ]);
    const browse = await get(`${browseBase()}${v2.id}/?lang=en-US`, reviewer);
    expect(browse.status).toBe(200);
    expect(browse.body).toMatchObject({ id: v2.id, addon: { name: { 'en-US': 'Beastify' } } });
    expect(Object.keys(browse.body.file_entries)).toEqual(['content', 'content/main.js', 'manifest.json']);
    const compare = await get(`${browseBase()}${v1.id}/compare_to/${v2.id}/?file=content/main.js`, reviewer);
    expect(compare.status).toBe(200);
    expect(compare.body.file.diff).toMatchObject({ path: 'content/main.js', mode: 'M', lines_added: 1 });
    expect(compare.body.file_entries['content/main.js'].status).toBe('M');

    const drafts = `${browseBase()}${v2.id}/draft_comments/`;
    const created = await call(t, 'post', drafts, reviewer, {
      comment: 'Why?',
      filename: 'content/main.js',
      lineno: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ filename: 'content/main.js', lineno: 2, canned_response: null });
    const listed = await get(drafts, reviewer);
    expect([listed.status, listed.body.results]).toEqual([200, [created.body]]);
    const canned = await get('/api/v5/reviewers/canned-responses/', reviewer);
    expect(canned.status).toBe(200);
    expect(Object.keys(canned.body[0]).sort()).toEqual(['category', 'id', 'response', 'title']);
  });

  it('review notes', async () => {
    const notes = `/api/v5/addons/addon/${addon.id}/versions/${v2.id}/reviewnotes/`;
    const created = await call(t, 'post', notes, author, { comments: 'Sources attached.' });
    expect(created.status).toBe(201);
    const list = await get(notes, author);
    expect(list.status).toBe(200);
    expect(list.body.results[0]).toMatchObject({ comments: 'Sources attached.', user: { name: 'V5 Author' } });
  });

  it('abuse: reports of an add-on and of a user', async () => {
    const report = await call(t, 'post', '/api/v5/abuse/report/addon/', null, {
      addon: String(addon.id),
      message: 'It changed my search engine.',
    });
    expect(report.status).toBe(201);
    expect(report.body).toMatchObject({ addon: { id: addon.id, slug: addon.slug }, reason: null });
    const user = await call(t, 'post', '/api/v5/abuse/report/user/', null, {
      user: String(author.id),
      message: 'Spam.',
    });
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({ user: { id: author.id }, message: 'Spam.' });
  });

  it('hero shelves, discovery and site', async () => {
    const hero = await get('/api/v5/hero/');
    expect([hero.status, hero.body]).toEqual([200, { primary: null, secondary: null }]);
    expect((await get('/api/v5/hero/primary/')).body).toEqual({ results: [] });
    const disco = await get('/api/v5/discovery/?lang=en-US');
    expect([disco.status, disco.body]).toEqual([200, { count: 0, results: [] }]);
    const site = await get('/api/v5/site/');
    expect([site.status, site.body]).toEqual([200, { read_only: false, notice: null }]);
  });

  it('signing: the old signing API under v5, with a JWT', async () => {
    const dev = await t.createUser({ 'api-key': true });
    const key = dev.apiKey!;
    const now = Math.floor(Date.now() / 1000);
    const jwt = `JWT ${signJwt({ iss: key.key, iat: now, exp: now + 300 }, key.secret)}`;
    const guid = 'v5-signing@example.com';
    const path = `/api/v5/addons/${encodeURIComponent(guid)}/versions/1.0.0/`;
    const put = await t.http
      .put(path)
      .set('Authorization', jwt)
      .attach('upload', await extension({ id: guid }), 'addon.xpi');
    expect(put.status).toBe(201);
    expect(put.body.url).toMatch(
      /^http:\/\/addons\.test\/api\/v5\/addons\/v5-signing%40example\.com\/versions\/1\.0\.0\//,
    );
    const status = await t.http.get(path).set('Authorization', jwt);
    expect([status.status, status.body.guid, status.body.version]).toEqual([200, guid, '1.0.0']);
  });
});

describe('what the clients read under /api/v5/', () => {
  it('addons-code-manager reads version.file.id, file.selected_file, file.content and file_entries', async () => {
    const res = await get(`${browseBase()}${v2.id}/?lang=en-US`, reviewer);
    expect(res.body.file).toMatchObject({
      id: file2,
      selected_file: 'manifest.json',
      content: MANIFEST('2.0'),
      filename: 'manifest.json',
      mime_category: 'text',
      mimetype: 'application/json',
      uses_unknown_minified_code: false,
      download_url: expect.stringMatching(/^http:\/\/addons\.test\//),
    });
    expect(res.body.file_entries['content/main.js']).toEqual({
      depth: 1,
      filename: 'main.js',
      path: 'content/main.js',
      mime_category: 'text',
    });
    expect(res.body).toMatchObject({ has_been_validated: true, channel: 'listed', version: '2.0' });
    expect(res.body.addon).toEqual({
      id: addon.id,
      name: { 'en-US': 'Beastify' },
      icon_url: expect.any(String),
      slug: addon.slug,
    });
    const only = await get(`${browseBase()}${v2.id}/?file=content/main.js&file_only=true`, reviewer);
    expect(Object.keys(only.body).sort()).toEqual(['file', 'id']);
    expect(only.body.file).toMatchObject({ id: file2, selected_file: 'content/main.js', content: 'one();\ntwo();\n' });
  });

  it('addons-code-manager reads version.validation_url_json, then its validation.messages', async () => {
    const res = await get(`${browseBase()}${v2.id}/`, reviewer);
    const url = `http://addons.test/api/v5/reviewers/addon/${addon.id}/file/${file2}/validation/`;
    expect(res.body.validation_url_json).toBe(url);
    const compare = await get(`${browseBase()}${v1.id}/compare_to/${v2.id}/`, reviewer);
    expect(compare.body.validation_url_json).toBe(url);
    const linter = await get(local(url), reviewer);
    expect(linter.status).toBe(200);
    expect(linter.body.validation.messages).toEqual([LINTER_MESSAGE]);
    // v4 keeps the upload's report, as its contract says.
    const v4 = await get(`/api/v4/reviewers/addon/${addon.id}/versions/${v2.id}/`, reviewer);
    expect(v4.body.validation_url_json).toMatch(/^http:\/\/addons\.test\/developers\/upload\/[0-9a-f]{32}\/json$/);
  });

  it('addons-code-manager reads comment.user and comment.canned_response of draft comments', async () => {
    const drafts = `${browseBase()}${v1.id}/draft_comments/`;
    const [canned] = (await get('/api/v5/reviewers/canned-responses/', reviewer)).body;
    const res = await call(t, 'post', drafts, reviewer, { canned_response: canned.id, filename: 'manifest.json' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      filename: 'manifest.json',
      lineno: null,
      comment: '',
      canned_response: canned,
      user: { id: reviewer.id, name: expect.any(String), url: expect.any(String), username: expect.any(String) },
    });
  });

  it('addons-frontend reads addon.ratings.grouped_counts with show_grouped_ratings=true', async () => {
    const res = await get(`/api/v5/addons/addon/${addon.slug}/?show_grouped_ratings=true`);
    const list = await get(`/api/v5/ratings/rating/?addon=${addon.id}&show_grouped_ratings=true`);
    expect(res.body.ratings.grouped_counts).toEqual(list.body.grouped_ratings);
    expect(res.body.ratings.grouped_counts[4]).toBe(1);
    expect((await get(`/api/v5/addons/addon/${addon.slug}/`)).body.ratings).not.toHaveProperty('grouped_counts');
    const bad = await get(`/api/v5/addons/addon/${addon.slug}/?show_grouped_ratings=maybe`);
    expect(bad.status).toBe(400);
    // v3 and v4 ignore the parameter, as their contract says.
    const v4 = await get(`/api/v4/addons/addon/${addon.slug}/?show_grouped_ratings=true`);
    expect(v4.body.ratings).not.toHaveProperty('grouped_counts');
  });

  it("addons-frontend reads a profile's homepage as a string (a plain URL field in the original)", async () => {
    const edited = await call(t, 'patch', `/api/v5/accounts/account/${author.id}/`, author, {
      homepage: 'https://example.com/me',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.homepage).toBe('https://example.com/me');
    expect((await get('/api/v5/accounts/profile/?wrap_outgoing_links', author)).body.homepage).toBe(
      'https://example.com/me',
    );
  });

  it("addons-frontend reads the own profile's fxa_edit_email_url (neutral-names)", async () => {
    const res = await get('/api/v5/accounts/profile/', author);
    expect(res.body).toHaveProperty('fxa_edit_email_url');
    expect(res.body).not.toHaveProperty('idp_edit_email_url');
    const v4 = await get('/api/v4/accounts/profile/', author);
    expect(v4.body).toHaveProperty('idp_edit_email_url');
    expect(v4.body).not.toHaveProperty('fxa_edit_email_url');
  });

  it("addons-frontend reads the original's application names: compatibility.firefox, app=firefox, abuse app", async () => {
    const detail = (await get(`/api/v5/addons/addon/${addon.slug}/`)).body as Json;
    expect(Object.keys(detail.current_version.compatibility)).toContain('firefox');
    expect(detail.current_version.compatibility).not.toHaveProperty('browser');
    const found = await get(`/api/v5/addons/search/?app=firefox&guid=${encodeURIComponent(addon.guid!)}`);
    expect(found.status).toBe(200);
    expect(found.body.results.map((a: Json) => a.id)).toEqual([addon.id]);
    await clearThrottles(t);
    const report = await call(t, 'post', '/api/v5/abuse/report/addon/', null, {
      addon: String(addon.id),
      message: 'Broken.',
      app: 'firefox',
    });
    expect(report.status).toBe(201);
    expect(report.body.app).toBe('firefox');
    // v4 keeps the contract's neutral name.
    const v4 = (await get(`/api/v4/addons/addon/${addon.slug}/`)).body as Json;
    expect(Object.keys(v4.current_version.compatibility)).toContain('browser');
    expect((await get('/api/v4/addons/search/?app=firefox')).status).toBe(400);
  });

  it('addons-frontend reads eula and privacy_policy from addons/addon/<slug>/eula_policy/', async () => {
    const res = await get(`/api/v5/addons/addon/${addon.slug}/eula_policy/?lang=fr`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ eula: { fr: 'Utilisez-le gentiment.' }, privacy_policy: null });
    const all = await get(`/api/v5/addons/addon/${addon.id}/eula_policy/`);
    expect(all.body.eula).toEqual({ 'en-US': 'Use it kindly.', fr: 'Utilisez-le gentiment.' });
    expect((await get('/api/v5/addons/addon/no-such-addon/eula_policy/')).status).toBe(404);
    expect((await get(`/api/v4/addons/addon/${addon.slug}/eula_policy/`)).status).toBe(404);
  });

  it('addons-frontend reads category.name (a string it sorts by), slug, application and type from addons/categories/', async () => {
    const res = await get('/api/v5/addons/categories/?lang=en-US');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const category of res.body as Json[]) {
      expect(Object.keys(category).sort()).toEqual(
        ['application', 'description', 'id', 'misc', 'name', 'slug', 'type', 'weight'].sort(),
      );
      expect(typeof category.name).toBe('string');
      expect(typeof category.type).toBe('string');
    }
    expect(res.body.map((c: Json) => c.type)).toContain('extension');
    expect((await get('/api/v4/addons/categories/')).status).toBe(404);
  });

  it('addons-frontend reads version.file.is_mozilla_signed_extension, file.size, file.permissions and license.text', async () => {
    const detail = (await get(`/api/v5/addons/addon/${addon.slug}/`)).body as Json;
    expect(detail.current_version.file).toMatchObject({
      is_mozilla_signed_extension: false,
      size: expect.any(Number),
      permissions: ['storage'],
      optional_permissions: [],
      created: expect.any(String),
      url: expect.stringMatching(/^http:\/\/addons\.test\//),
    });
    const version = (await get(`/api/v5/addons/addon/${addon.slug}/versions/${v2.id}/`)).body as Json;
    expect(version.license).toMatchObject({ is_custom: false, name: expect.any(Object), url: expect.any(String) });
    expect(version.license).toHaveProperty('text');
  });
});
