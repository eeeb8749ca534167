import {
  AddonStatus,
  AddonType,
  App,
  Channel,
  FileStatus,
  PromotedCategory,
} from '../src/catalogue/catalogue.enums.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';

let t: TestApp;
const tokens: Record<string, string> = {};
let authorId: number;
let publicAddon: Addon;
let statements = 0;

beforeAll(async () => {
  t = await startTestApp({ onQuery: () => statements++ });
  const author = await t.createUser({ session: true, username: 'author1', name: 'The Author' });
  authorId = author.id;
  tokens.author = `Bearer ${author.sessionToken}`;
  tokens.other = `Bearer ${(await t.createUser({ session: true })).sessionToken}`;
  tokens.reviewer = `Bearer ${(await t.createUser({ session: true, group: ['Reviewers'] })).sessionToken}`;
  tokens.unlistedReviewer = `Bearer ${(await t.createUser({ session: true, group: ['Unlisted Reviewers'] })).sessionToken}`;
  tokens.admin = `Bearer ${(await t.createUser({ session: true, group: ['Admins'] })).sessionToken}`;
  publicAddon = await createAddon(t.em(), {
    slug: 'public-one',
    guid: '{8a7b6c5d-1234-4abc-9def-0123456789ab}',
    name: { 'en-US': 'Public One', fr: 'Public Un' },
    description: { 'en-US': 'See <a href="https://example.com/docs">the docs</a>.' },
    homepage: { 'en-US': 'https://example.com/home' },
    tags: ['privacy', 'tabs'],
    promotedCategory: PromotedCategory.RECOMMENDED,
    promotedApps: [App.BROWSER],
    averageDailyUsers: 1234,
    weeklyDownloads: 99,
    authors: [{ id: authorId }],
    previews: 2,
    featured: [{ app: App.BROWSER }],
    versions: [
      { version: '1.0', compat: { [App.BROWSER]: ['57.0', '*'], [App.SUITE]: ['2.49', '*'] } },
      { version: '1.1', releaseNotes: { 'en-US': 'Fixes' } },
      { version: '2.0b1', channel: Channel.UNLISTED },
    ],
  });
});
afterAll(() => t.close());

const get = (path: string, auth?: string) => {
  const req = t.http.get(path);
  return auth ? req.set('Authorization', auth) : req;
};

describe('add-on detail', () => {
  it('finds public add-ons by id, slug and case-insensitive guid', async () => {
    for (const key of [String(publicAddon.id), 'public-one', '{8A7B6C5D-1234-4ABC-9DEF-0123456789AB}']) {
      const res = await get(`/api/v4/addons/addon/${encodeURIComponent(key)}/`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body.id).toBe(publicAddon.id);
    }
    expect((await get('/api/v4/addons/addon/no-such-addon/')).body).toEqual({ detail: 'Not found.' });
    expect((await get('/api/v4/addons/addon/999999999999/')).status).toBe(404);
  });

  it('reads an add-on with its authors, previews and current version (licence, files, compatibility) in one statement', async () => {
    for (const key of [String(publicAddon.id), 'public-one']) {
      // A reviewer (permissions) is never served a shared answer.
      const signedIn = await get(`/api/v4/addons/addon/${key}/`, tokens.reviewer);
      expect(signedIn.status).toBe(200);
      const before = statements;
      const res = await get(`/api/v4/addons/addon/${key}/?lang=fr`, tokens.reviewer);
      expect(res.status).toBe(200);
      expect(res.body.authors.map((a: { id: number }) => a.id)).toEqual([authorId]);
      expect(res.body.previews).toHaveLength(2);
      expect(res.body.current_version.files).toHaveLength(1);
      expect(res.body.current_version.compatibility).toBeDefined();
      expect(res.body.current_version.license).not.toBeNull();
      // The session with its user and their permissions, and the add-on with everything it shows
      // (its authors tell whether the viewer is one, for latest_unlisted_version).
      expect(statements - before).toBe(2);
    }
  });

  it('finds slugs holding a semicolon or a percent sign, and refuses a NUL character', async () => {
    const addon = await createAddon(t.em(), { slug: 'semi-colon' });
    // Written with chr(59): the embedded database would run a statement holding a `;` as a script.
    await t
      .em()
      .getConnection()
      .execute(`update addons set slug = 'semi' || chr(59) || '%3B%25' where id = ?`, [addon.id]);
    const res = await get(`/api/v4/addons/addon/${encodeURIComponent('semi;%3B%25')}/`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(addon.id);
    expect((await get(`/api/v4/addons/addon/${encodeURIComponent('semi;')}/`)).status).toBe(404);
    const nul = await get('/api/v4/addons/addon/public%00one/');
    expect([nul.status, nul.body]).toEqual([400, { detail: 'Null characters are not allowed.' }]);
  });

  it('shows the v4 object', async () => {
    const { body } = await get('/api/v4/addons/addon/public-one/');
    expect(body).toMatchObject({
      slug: 'public-one',
      type: 'extension',
      status: 'public',
      name: { 'en-US': 'Public One', fr: 'Public Un' },
      tags: ['privacy', 'tabs'],
      average_daily_users: 1234,
      weekly_downloads: 99,
      is_disabled: false,
      has_eula: false,
      promoted: { category: 'recommended', apps: ['browser'] },
      public_stats: true,
      ratings: { average: 0, bayesian_average: 0, count: 0, text_count: 0 },
      authors: [{ id: authorId, name: 'The Author', username: 'author1' }],
      contributions_url: '',
    });
    expect(body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Object.keys(body.icons)).toEqual(['32', '64', '128']);
    expect(body.icon_url).toBe(body.icons['64']);
    expect(body.previews).toHaveLength(2);
    expect(body.previews[0]).toMatchObject({ caption: { 'en-US': 'Shot 0' }, image_size: [1280, 800] });
    expect(body.current_version).toMatchObject({
      version: '1.1',
      channel: 'listed',
      compatibility: { browser: { min: '57.0', max: '*' } },
      release_notes: { 'en-US': 'Fixes' },
      license: { is_custom: false, name: { 'en-US': 'Mozilla Public License 2.0' } },
      is_strict_compatibility_enabled: false,
    });
    expect(body.current_version.license).not.toHaveProperty('text');
    expect(body.current_version.files[0]).toMatchObject({ status: 4, platform: 'all', is_webextension: true });
    expect(body.current_version.files[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\/file\/\d+\//);
    expect(body).not.toHaveProperty('latest_unlisted_version');
    expect(body).not.toHaveProperty('is_featured');
    expect(body.url).toMatch(/\/addon\/public-one\/$/);
    expect(body.description['en-US']).toMatch(
      /href="https:\/\/outgoing\.example\.org\/v1\/[^"]+https%3A\/\/example\.com\/docs"/,
    );
  });

  it('shows the v3 object', async () => {
    const { body } = await get('/api/v3/addons/addon/public-one/');
    expect(body).not.toHaveProperty('created');
    expect(body).not.toHaveProperty('promoted');
    expect(body).not.toHaveProperty('public_stats');
    expect(body).toMatchObject({ is_featured: true, is_source_public: false, contributions_url: null });
    expect(Object.keys(body.icons)).toEqual(['32', '64']);
    expect(body.current_version.license).not.toHaveProperty('is_custom');
    expect(body.current_version.files[0]).not.toHaveProperty('optional_permissions');
    const withSuite = await get(`/api/v3/addons/addon/public-one/versions/`);
    const oldest = withSuite.body.results.find((v: { version: string }) => v.version === '1.0');
    expect(oldest.compatibility).toEqual({ browser: { min: '57.0', max: '*' }, suite: { min: '2.49', max: '*' } });
    const v4 = await get(`/api/v4/addons/addon/public-one/versions/`);
    expect(v4.body.results.find((v: { version: string }) => v.version === '1.0').compatibility).toEqual({
      browser: { min: '57.0', max: '*' },
    });
  });

  it('gives one string per translated field with lang, and wraps outgoing links on demand', async () => {
    const fr = await get('/api/v4/addons/addon/public-one/?lang=fr');
    expect(fr.body.name).toBe('Public Un');
    expect(fr.body.summary).toMatch(/^Summary of add-on/);
    expect(fr.body.homepage).toBe('https://example.com/home');
    const wrapped = await get('/api/v4/addons/addon/public-one/?lang=fr&wrap_outgoing_links');
    expect(wrapped.body.homepage).toMatch(
      /^https:\/\/outgoing\.example\.org\/v1\/.+example\.com%2Fhome$|^https:\/\/outgoing\.example\.org\/v1\/.+example\.com\/home$/,
    );
    const plain = await get('/api/v4/addons/addon/public-one/?wrap_outgoing_links');
    expect(plain.body.homepage['en-US']).toMatch(/^https:\/\/outgoing\.example\.org\/v1\//);
  });

  it('shows latest_unlisted_version only to authors and unlisted reviewers', async () => {
    for (const who of ['author', 'unlistedReviewer', 'admin']) {
      const { body } = await get('/api/v4/addons/addon/public-one/', tokens[who]);
      expect(body.latest_unlisted_version).toMatchObject({ version: '2.0b1', channel: 'unlisted' });
    }
    for (const who of ['other', 'reviewer']) {
      expect((await get('/api/v4/addons/addon/public-one/', tokens[who])).body).not.toHaveProperty(
        'latest_unlisted_version',
      );
    }
  });

  it('shows static themes as statictheme in v4 and persona in v3', async () => {
    const theme = await createAddon(t.em(), { type: AddonType.STATICTHEME });
    expect((await get(`/api/v4/addons/addon/${theme.id}/`)).body.type).toBe('statictheme');
    expect((await get(`/api/v3/addons/addon/${theme.id}/`)).body.type).toBe('persona');
  });
});

describe('add-on visibility', () => {
  const flags = (developer: boolean, vendor: boolean) => ({
    is_disabled_by_developer: developer,
    is_disabled_by_vendor: vendor,
  });

  it.each([
    ['awaiting review', { status: AddonStatus.NOMINATED }, flags(false, false)],
    ['disabled by its developer', { disabledByUser: true }, flags(true, false)],
    ['disabled by the vendor', { status: AddonStatus.DISABLED }, flags(false, true)],
  ])('hides an add-on %s: 401 anonymous, 403 others, 200 authors and reviewers', async (_n, fields, expected) => {
    const addon = await createAddon(t.em(), { ...fields, authors: [{ id: authorId }] });
    const path = `/api/v4/addons/addon/${addon.id}/`;
    const anonymous = await get(path);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.', ...expected });
    const other = await get(path, tokens.other);
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ detail: 'You do not have permission to perform this action.', ...expected });
    for (const who of ['author', 'reviewer', 'admin']) expect((await get(path, tokens[who])).status).toBe(200);
  });

  it('hides an add-on without a current version the same way', async () => {
    const addon = await createAddon(t.em(), { versions: [{ fileStatus: FileStatus.AWAITING_REVIEW }] });
    expect(addon.currentVersion).toBeNull();
    expect((await get(`/api/v4/addons/addon/${addon.id}/`)).status).toBe(401);
  });

  it('lets only unlisted reviewers and authors see unlisted-only add-ons', async () => {
    const addon = await createAddon(t.em(), {
      status: AddonStatus.INCOMPLETE,
      authors: [{ id: authorId }],
      versions: [{ channel: Channel.UNLISTED }],
    });
    const path = `/api/v4/addons/addon/${addon.id}/`;
    expect((await get(path, tokens.reviewer)).status).toBe(403);
    expect((await get(path, tokens.unlistedReviewer)).status).toBe(200);
    expect((await get(path, tokens.author)).body.latest_unlisted_version.channel).toBe('unlisted');
  });

  it('answers deleted add-ons with a plain 404, except to Addons:ViewDeleted', async () => {
    const addon = await createAddon(t.em(), { status: AddonStatus.DELETED, authors: [{ id: authorId }] });
    for (const who of [undefined, 'other', 'author', 'reviewer']) {
      const res = await get(`/api/v4/addons/addon/${addon.id}/`, who && tokens[who]);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'Not found.' });
    }
    const admin = await get(`/api/v4/addons/addon/${addon.id}/`, tokens.admin);
    expect(admin.status).toBe(200);
    expect(admin.body.status).toBe('deleted');
  });
});

describe('language packs with app and appversion (v4)', () => {
  it('pick the newest version compatible with that application version', async () => {
    const pack = await createAddon(t.em(), {
      type: AddonType.LANGUAGE,
      versions: [
        { version: '60.0', compat: { [App.BROWSER]: ['60.0', '60.*'] } },
        { version: '61.0', compat: { [App.BROWSER]: ['61.0', '61.*'] } },
      ],
    });
    const path = `/api/v4/addons/addon/${pack.id}/`;
    expect((await get(path)).body.current_version.version).toBe('61.0');
    expect((await get(`${path}?app=browser&appversion=60.0`)).body.current_version.version).toBe('60.0');
    expect((await get(`${path}?app=browser&appversion=70.0`)).body.current_version.version).toBe('61.0');
    expect(
      (await get(`/api/v3/addons/addon/${pack.id}/?app=browser&appversion=60.0`)).body.current_version.version,
    ).toBe('61.0');
    const badApp = await get(`${path}?app=netscape&appversion=60.0`);
    expect(badApp.status).toBe(400);
    expect(badApp.body).toEqual({ detail: 'Invalid "app" parameter.' });
    expect((await get(`${path}?app=browser&appversion=sixty`)).body).toEqual({
      detail: 'Invalid "appversion" parameter.',
    });
    expect((await get(`${path}?app=suite&appversion=60.0`)).body).toEqual({ detail: 'Invalid "app" parameter.' });
  });
});

describe('versions', () => {
  let addon: Addon;
  beforeAll(async () => {
    addon = await createAddon(t.em(), {
      authors: [{ id: authorId }],
      versions: [
        { version: '1.0' },
        { version: '1.1', fileStatus: FileStatus.AWAITING_REVIEW },
        { version: '1.2', deleted: true },
        { version: '1.3', channel: Channel.UNLISTED },
        { version: '1.4', fileStatus: FileStatus.DISABLED },
        { version: '1.5' },
      ],
    });
  });
  const versions = async (query = '', who?: string) => {
    const res = await get(`/api/v4/addons/addon/${addon.slug}/versions/${query}`, who && tokens[who]);
    return { status: res.status, body: res.body, names: res.body.results?.map((v: { version: string }) => v.version) };
  };

  it('lists public listed versions, newest first, paginated', async () => {
    const res = await versions();
    expect(res.names).toEqual(['1.5', '1.0']);
    expect(res.body).toMatchObject({ count: 2, page_size: 25, page_count: 1, next: null, previous: null });
    expect(res.body.results[0].license).toHaveProperty('text');
    const paged = await versions('?page_size=1');
    expect(paged.names).toEqual(['1.5']);
    expect(paged.body.next).toMatch(/page=2&page_size=1$/);
  });

  it('applies each filter with its permission', async () => {
    expect((await versions('?filter=all_without_unlisted', 'author')).names).toEqual(['1.5', '1.4', '1.1', '1.0']);
    expect((await versions('?filter=all_without_unlisted', 'reviewer')).names).toEqual(['1.5', '1.4', '1.1', '1.0']);
    expect((await versions('?filter=all_with_unlisted', 'author')).names).toEqual(['1.5', '1.4', '1.3', '1.1', '1.0']);
    expect((await versions('?filter=all_with_unlisted', 'unlistedReviewer')).names).toHaveLength(5);
    expect((await versions('?filter=all_with_deleted', 'admin')).names).toEqual([
      '1.5',
      '1.4',
      '1.3',
      '1.2',
      '1.1',
      '1.0',
    ]);
    expect((await versions('?filter=all_without_unlisted')).status).toBe(401);
    expect((await versions('?filter=all_without_unlisted', 'other')).status).toBe(403);
    expect((await versions('?filter=all_with_unlisted', 'reviewer')).status).toBe(403);
    expect((await versions('?filter=all_with_deleted', 'author')).status).toBe(403);
    const bad = await versions('?filter=everything');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(['Invalid "filter" parameter specified.']);
  });

  it('serves one version with the same rules', async () => {
    const all = await versions('?filter=all_with_deleted', 'admin');
    const id = (name: string) => all.body.results.find((v: { version: string }) => v.version === name).id;
    const one = (name: string, who?: string, query = '') =>
      get(`/api/v4/addons/addon/${addon.id}/versions/${id(name)}/${query}`, who && tokens[who]);
    expect((await one('1.0')).body).toMatchObject({ version: '1.0', license: { text: null } });
    expect((await one('1.2', 'author')).status).toBe(404);
    expect((await one('1.2', 'admin')).status).toBe(200);
    expect((await one('1.3')).status).toBe(401);
    expect((await one('1.3', 'reviewer')).status).toBe(403);
    expect((await one('1.3', 'unlistedReviewer')).status).toBe(200);
    expect((await one('1.1', 'other')).status).toBe(403);
    expect((await one('1.1', 'reviewer')).status).toBe(200);
    expect((await one('1.0', undefined, '?filter=all_with_unlisted')).body).toEqual([
      'The "filter" parameter is not valid in this context.',
    ]);
    expect((await get(`/api/v4/addons/addon/${addon.id}/versions/${publicAddon.currentVersion!.id}/`)).status).toBe(
      404,
    );
    expect((await get(`/api/v4/addons/addon/${addon.id}/versions/abc/`)).status).toBe(404);
  });

  it('answers one version in v3 too', async () => {
    const id = publicAddon.currentVersion!.id;
    const v3 = await get(`/api/v3/addons/addon/${publicAddon.id}/versions/${id}/`);
    const v4 = await get(`/api/v4/addons/addon/${publicAddon.id}/versions/${id}/`);
    expect(v3.status).toBe(200);
    expect(v3.body).toMatchObject({ id, version: v4.body.version, channel: 'listed' });
    expect((await get(`/api/v3/addons/addon/${publicAddon.id}/versions/999999999/`)).status).toBe(404);
  });

  it('follows the add-on visibility', async () => {
    const hidden = await createAddon(t.em(), { status: AddonStatus.NOMINATED });
    expect((await get(`/api/v4/addons/addon/${hidden.id}/versions/`)).status).toBe(401);
  });
});

describe('cached anonymous answers', () => {
  it('never outlive a write to the add-on, its versions, files or authors', async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Before' }, authors: [{ id: authorId }] });
    const path = `/api/v4/addons/addon/${addon.id}/`;
    expect((await get(path)).body.name).toEqual({ 'en-US': 'Before' });
    expect((await get(path)).body.name).toEqual({ 'en-US': 'Before' });

    const em = t.em();
    await em.getConnection().execute(`update addons set name = '{"en-US": "After"}' where id = ?`, [addon.id]);
    expect((await get(path)).body.name).toEqual({ 'en-US': 'After' });

    await em.getConnection().execute(`update files set size = 4321 where version_id = ?`, [addon.currentVersion!.id]);
    expect((await get(path)).body.current_version.files[0].size).toBe(4321);

    await em.getConnection().execute(`update users set display_name = 'Renamed' where id = ?`, [authorId]);
    expect((await get(path)).body.authors[0].name).toBe('Renamed');
    await em.getConnection().execute(`update users set display_name = 'The Author' where id = ?`, [authorId]);

    await em.getConnection().execute(`update addons set status = ? where id = ?`, [AddonStatus.NOMINATED, addon.id]);
    expect((await get(path)).status).toBe(401);
  });

  it('are not shared with signed-in callers', async () => {
    const addon = await createAddon(t.em(), {
      authors: [{ id: authorId }],
      versions: [{}, { channel: Channel.UNLISTED }],
    });
    const path = `/api/v4/addons/addon/${addon.id}/`;
    expect((await get(path)).body).not.toHaveProperty('latest_unlisted_version');
    expect((await get(path, tokens.author)).body).toHaveProperty('latest_unlisted_version');
  });
});

describe('authors through GraphQL', () => {
  const AUTHORS = `{ addon(id: "public-one") { authors { user { id username name created private { email } } } } }`;
  const query = (auth?: string) => {
    const req = t.http.post('/graphql').send({ query: AUTHORS });
    return auth ? req.set('Authorization', auth) : req;
  };

  it('shows public fields to everyone and private ones to the author themself and Users:Edit only', async () => {
    const anonymous = (await query()).body.data.addon.authors;
    expect(anonymous).toEqual([
      { user: { id: authorId, username: 'author1', name: 'The Author', created: expect.any(String), private: null } },
    ]);
    expect((await query(tokens.other)).body.data.addon.authors[0].user.private).toBeNull();
    for (const token of [tokens.author, tokens.admin]) {
      const [{ user }] = (await query(token)).body.data.addon.authors;
      expect(user.private).toEqual({ email: expect.stringMatching(/@example\.com$/) });
    }
  });
});
