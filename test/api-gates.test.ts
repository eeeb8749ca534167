import { API_GATES, API_VERSIONS, GATES, type ApiVersion, type Gate } from '../rest-compat/gates.js';
import { defineRoutes } from '../rest-compat/route.js';
import type { RestUserFieldsFragment } from '../rest-compat/generated/operations.js';
import { shapeUser } from '../rest-compat/routes/accounts.js';
import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, AddonType, App, PromotedCategory } from '../src/catalogue/catalogue.enums.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon, firstExtensionCategoryId } from './helpers/catalogue.js';
import { attachPackage } from './helpers/packages.js';
import { call, caller, clearThrottles, versionsOf, type Caller } from './helpers/ratings.js';

/**
 * The gate table (rest-compat/gates.ts, issue 25): one probe per gate sends real requests to the
 * app under an API version and says whether the gate's behaviour shows in the answer. Each gate
 * must show exactly in the versions whose list names it.
 */

type Json = Record<string, any>;
type Probe = (v: ApiVersion) => Promise<boolean>;

/**
 * The service never shows a minimal profile (another user's account without listed add-ons is a
 * 404, and its nested users are hidden too), so the account shaper is probed on such a user
 * through a route mounted for this test: the real engine, its version and gates.
 */
const minimalUser: RestUserFieldsFragment = {
  id: 1,
  username: 'nobody-special',
  name: 'Firefox user 1',
  url: 'http://addons.test/user/1/',
  displayName: null,
  created: '2020-01-01T00:00:00Z',
  biography: 'Hidden',
  homepage: null,
  location: 'Hidden',
  occupation: null,
  averageAddonRating: 0,
  numAddonsListed: 0,
  isAddonDeveloper: false,
  isArtist: false,
  pictureType: null,
  pictureUrl: null,
  hasAnonymousUsername: false,
  hasAnonymousDisplayName: true,
  private: null,
};
const probeRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/gate-probe/minimal-profile/',
    versions: API_VERSIONS,
    document: 'query GateProbeMinimalProfile { siteStatus { readOnly } }',
    shape: (_data, ctx) => shapeUser(minimalUser, ctx),
  },
]);

let t: TestApp;
/** Author of `ext`, `plain`, `theme` and `lite`. */
let dev: Caller;
/** Without add-ons, display name or anonymous username. */
let plain: Caller;
/** Renames itself (accounts-username-editable). */
let renamer: Caller;
/** Owns the collection. */
let collector: Caller;
/** Holds Collections:Edit. */
let collectionEditor: Caller;
/** Flagged `rating`. */
let flagger: Caller;
let ext: Addon;
let plainExt: Addon;
let theme: Addon;
let lite: Addon;
/** Sorted apart by weekly downloads and by daily users (search-default-sort-downloads, autocomplete-sort-param). */
let byDownloads: Addon;
let byUsers: Addon;
let versionId: number;
/** By a user on `ext` (score 5, with the developer's reply and a flag); another rates it 1. */
let rating: number;
let lowRating: number;
const COLLECTION = 'gate-picks';

const ratingsBase = (v: ApiVersion) => (v === 'v3' ? `/api/v3/reviews/review/` : `/api/${v}/ratings/rating/`);

async function ok(res: { status: number; body: unknown; text: string }, status = 200): Promise<Json> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  return res.body as Json;
}

const get = async (path: string, who: Caller | null = null) => ok(await call(t, 'get', path, who));
const detail = (v: ApiVersion, addon: Addon, query = '', who: Caller | null = null) =>
  get(`/api/${v}/addons/addon/${addon.id}/${query}`, who);
const currentVersion = async (v: ApiVersion) => (await detail(v, ext)).current_version as Json;
/** The current version's (first) file: `files[0]` or `file`. */
const firstFile = async (v: ApiVersion) => {
  const version = await currentVersion(v);
  return (version.files ? version.files[0] : version.file) as Json;
};
const search = (v: ApiVersion, query: string) => t.http.get(`/api/${v}/addons/search/${query}`);
const ids = (body: Json) => (body.results as Json[]).map((r) => r.id as number);
const searchIds = async (v: ApiVersion, query: string) => ids(await ok(await search(v, query)));
const autocomplete = async (v: ApiVersion, query: string) =>
  ok(await t.http.get(`/api/${v}/addons/autocomplete/${query}`));
const ratingDetail = (v: ApiVersion, query = '', who: Caller | null = null) =>
  get(`${ratingsBase(v)}${rating}/${query}`, who);
const profile = (v: ApiVersion, who: Caller) => get(`/api/${v}/accounts/profile/`, who);
const discovery = (v: ApiVersion, query = '') => get(`/api/${v}/discovery/${query}`);
const discoveryIds = async (v: ApiVersion, query = '') =>
  ((await discovery(v, query)).results as Json[]).map((r) => r.addon.id as number);

/** Two observations of one gate must agree. */
function agree(name: string, ...seen: boolean[]): boolean {
  if (seen.some((s) => s !== seen[0])) throw new Error(`${name}: observations disagree (${seen.join(', ')})`);
  return seen[0];
}

let accountCount = 0;

const block = (v: ApiVersion) => get(`/api/${v}/blocklist/block/gate-blocked@example.com/`);

const probes: Record<Gate, Probe> = {
  // v3 has no blocklist route.
  'block-min-max-versions-shim': async (v) => {
    if (v === 'v3') return false;
    const body = await block(v);
    return agree('range', body.min_version === '0', body.max_version === '*');
  },
  'block-versions-list-shim': async (v) => v !== 'v3' && Array.isArray((await block(v)).versions),
  'del-version-queue-standing': async (v) =>
    !('queue_standing' in (await get(`/api/${v}/addons/addon/${ext.id}/versions/${versionId}/`, dev))),
  'ratings-rating-shim': async (v) => {
    const body = await ratingDetail(v);
    return agree('rating object', 'rating' in body, !('score' in body));
  },
  'ratings-title-shim': async (v) => {
    const body = await ratingDetail(v);
    return agree('rating and reply', body.title === null, body.reply?.title === null);
  },
  l10n_flat_input_output: async (v) => typeof (await detail(v, ext, '?lang=fr')).name === 'string',
  'collections-downloads-shim': async (v) => {
    const body = await get(`/api/${v}/accounts/account/${collector.id}/collections/${COLLECTION}/addons/`);
    return 'downloads' in body.results[0];
  },
  'del-addons-created-field': async (v) => !('created' in (await detail(v, ext))),
  'del-accounts-fxa-edit-email-url': async (v) => {
    const body = await profile(v, plain);
    const link = 'idp_edit_email_url' in body || 'fxa_edit_email_url' in body;
    return agree('own profile', !link, !('site_status' in body));
  },
  'del-addon-detail-grouped-ratings': async (v) =>
    !('grouped_counts' in (await detail(v, ext, '?show_grouped_ratings=true')).ratings),
  // v3 has no browse route.
  'browse-validation-url-upload-report': async (v) =>
    v !== 'v3' &&
    /\/developers\/upload\/[0-9a-f]{32}\/json$/.test(
      (await get(`/api/${v}/reviewers/addon/${ext.id}/versions/${versionId}/`, dev)).validation_url_json,
    ),
  'del-version-license-is-custom': async (v) => !('is_custom' in (await currentVersion(v)).license),
  'del-ratings-flags': async (v) => {
    const one = await ratingDetail(v, `?show_flags_for=${flagger.id}`, flagger);
    const list = await get(`${ratingsBase(v)}?addon=${ext.id}&show_flags_for=${flagger.id}`, flagger);
    const flagged = (list.results as Json[]).find((r) => r.id === rating)!;
    return agree('detail and list', !('flags' in one), !('flags' in flagged));
  },
  'activity-user-shim': async (v) => {
    const body = await get(`/api/${v}/addons/addon/${ext.id}/versions/${versionId}/reviewnotes/`, dev);
    return 'username' in body.results[0].user;
  },
  'autocomplete-sort-param': async (v) => {
    const first = async (sort: string) => ids(await autocomplete(v, `?tag=gate-sort&sort=${sort}`))[0];
    return (await first('downloads')) !== (await first('users'));
  },
  'is-source-public-shim': async (v) => 'is_source_public' in (await detail(v, ext)),
  'is-featured-addon-shim': async (v) => 'is_featured' in (await detail(v, ext)),
  'disco-heading-and-description-shim': async (v) => {
    const [item] = (await discovery(v)).results as Json[];
    return agree('discovery item', 'heading' in item, 'description' in item, !('description_text' in item));
  },
  'wrap-outgoing-parameter': async (v) => {
    const body = await detail(v, ext);
    return agree(
      'outgoing links',
      typeof body.contributions_url === 'string',
      typeof body.homepage['en-US'] === 'string',
      typeof body.support_url['en-US'] === 'string',
    );
  },
  'platform-shim': async (v) => 'platform' in (await firstFile(v)),
  'keep-license-text-in-version-list': async (v) => {
    const body = await get(`/api/${v}/addons/addon/${ext.id}/versions/`, dev);
    return 'text' in body.results[0].license;
  },
  'is-restart-required-shim': async (v) => 'is_restart_required' in (await firstFile(v)),
  'is-webextension-shim': async (v) => 'is_webextension' in (await firstFile(v)),
  'version-files': async (v) => {
    const version = await currentVersion(v);
    return agree('version files', 'files' in version, !('file' in version));
  },
  'del-version-license-slug': async (v) => !('slug' in (await currentVersion(v)).license),
  'del-preview-position': async (v) => !('position' in (await detail(v, ext)).previews[0]),
  'categories-application': async (v) => !Array.isArray((await detail(v, ext)).categories),
  // v3 shows no `promoted` at all (del-addons-promoted-public-stats, autocomplete-legacy-suggestion,
  // disco-legacy-addon-subset): there the probe can only see that no list is sent.
  'promoted-groups-shim': async (v) => {
    const seen = [(await detail(v, ext)).promoted, (await autocomplete(v, `?q=gate`)).results[0].promoted];
    return agree('promoted', ...seen.map((p) => !Array.isArray(p)));
  },
  'minimal-profile-has-all-fields-shim': async (v) => {
    const body = await get(`/api/${v}/gate-probe/minimal-profile/`);
    return agree('minimal profile', 'created' in body, 'biography' in body && body.biography === null);
  },
  'addons-search-_score-field': async (v) => {
    const body = await ok(await search(v, `?q=gate`));
    return '_score' in body.results[0];
  },
  'ratings-score-filter': async (v) => {
    const all = await get(`${ratingsBase(v)}?addon=${ext.id}`);
    const low = await get(`${ratingsBase(v)}?addon=${ext.id}&score=1`);
    if (all.count !== 2) throw new Error(`expected 2 ratings, got ${all.count}`);
    return low.count === 1 && low.results[0].id === lowRating;
  },
  'legacy-applications': async (v) => 'suite' in (await currentVersion(v)).compatibility,
  'legacy-addon-statuses': async (v) => (await detail(v, lite, '', dev)).status === 'lite',
  'static-theme-as-persona': async (v) => {
    const shown = (await detail(v, theme)).type === 'persona';
    const filtered = (await searchIds(v, `?type=persona&author=${dev.id},gate-dev`)).includes(theme.id);
    return agree('static theme', shown, filtered);
  },
  'user-name-username-fallback': async (v) => {
    const body = await profile(v, plain);
    return body.name === body.username;
  },
  'anonymous-display-name-needs-username': async (v) => (await profile(v, plain)).has_anonymous_display_name === false,
  'del-file-optional-permissions': async (v) => !('optional_permissions' in (await firstFile(v))),
  'del-file-host-permissions': async (v) => !('host_permissions' in (await firstFile(v))),
  'del-addon-is-noindexed': async (v) => !('is_noindexed' in (await detail(v, ext))),
  'del-addons-icon-128': async (v) => !('128' in (await detail(v, ext)).icons),
  'del-addons-promoted-public-stats': async (v) => {
    const body = await detail(v, ext);
    return agree('add-on', !('promoted' in body), !('public_stats' in body));
  },
  'search-authors-picture-url': async (v) => {
    const body = await ok(await search(v, `?guid=${encodeURIComponent(ext.guid!)}`));
    return 'picture_url' in body.results[0].authors[0];
  },
  'contributions-url-empty-string': async (v) => {
    const value = (await detail(v, plainExt)).contributions_url;
    if (value !== null && value !== '') throw new Error(`contributions_url: ${JSON.stringify(value)}`);
    return value === '';
  },
  'search-single-type': async (v) => (await search(v, '?type=extension,dictionary')).status === 400,
  'search-author-usernames-only': async (v) => !(await searchIds(v, `?author=${dev.id}`)).includes(ext.id),
  'search-default-sort-downloads': async (v) => {
    const found = await searchIds(v, '?tag=gate-sort');
    if (found.length !== 2) throw new Error(`expected both sorted add-ons, got ${found.join(', ')}`);
    return agree('order', found[0] === byDownloads.id, found[1] === byUsers.id);
  },
  'del-search-recommended-sort': async (v) => (await search(v, '?sort=recommended')).status === 400,
  'del-search-rta-guid': async (v) => {
    const rta = `rta:${Buffer.from(ext.guid!).toString('base64url')}`;
    return !(await searchIds(v, `?guid=${encodeURIComponent(rta)}`)).includes(ext.id);
  },
  'del-ratings-list-v4-params': async (v) => {
    const excluded = await get(`${ratingsBase(v)}?addon=${ext.id}&exclude_ratings=${rating}`);
    const permissions = await get(`${ratingsBase(v)}?addon=${ext.id}&show_permissions_for=${dev.id}`, dev);
    return agree('v4 list parameters', excluded.count === 2, !('can_reply' in permissions));
  },
  'del-addon-detail-app-filter': async (v) => {
    const res = await call(t, 'get', `/api/${v}/addons/addon/${ext.id}/?app=netscape&appversion=60.0`, null);
    if (res.status !== 200 && res.status !== 400) throw new Error(`unexpected ${res.status}: ${res.text}`);
    return res.status === 200;
  },
  'abuse-legacy-report-input': async (v) => {
    await t.em().getConnection().execute('delete from abuse_throttles');
    const res = await call(t, 'post', `/api/${v}/abuse/report/addon/`, null, { message: 'No add-on named.' });
    if (res.status !== 400) throw new Error(`unexpected ${res.status}: ${res.text}`);
    return agree('legacy refusal', Array.isArray(res.body) || 'detail' in res.body, !('addon' in res.body));
  },
  'abuse-legacy-report-output': async (v) => {
    await t.em().getConnection().execute('delete from abuse_throttles');
    const body = await ok(
      await call(t, 'post', `/api/${v}/abuse/report/addon/`, null, { addon: String(ext.id), message: 'Bad.' }),
      201,
    );
    return agree('report', !('reason' in body), !('addon_name' in body));
  },
  'abuse-legacy-report-choices': async (v) => {
    await t.em().getConnection().execute('delete from abuse_throttles');
    const res = await call(t, 'post', `/api/${v}/abuse/report/addon/`, null, {
      addon: String(ext.id),
      message: 'Bad.',
      reason: 'does_not_work',
    });
    if (res.status !== 201 && res.status !== 400) throw new Error(`unexpected ${res.status}: ${res.text}`);
    return res.status === 400 || !('reporter_name' in res.body);
  },
  'file-status-integer': async (v) => typeof (await firstFile(v)).status === 'number',
  // v3 has no email-change link at all (del-accounts-fxa-edit-email-url): its names show elsewhere.
  'neutral-names': async (v) => {
    const file = await firstFile(v);
    const compatibility = (await currentVersion(v)).compatibility;
    const own = await profile(v, plain);
    return agree(
      'names',
      'is_vendor_signed_extension' in file && !('is_mozilla_signed_extension' in file),
      'browser' in compatibility && !('firefox' in compatibility),
      v === 'v3' || ('idp_edit_email_url' in own && !('fxa_edit_email_url' in own)),
    );
  },
  'ratings-legacy-addon-summary': async (v) => {
    const body = await ratingDetail(v);
    return agree('rating', !('is_deleted' in body), !('name' in body.addon));
  },
  'search-platform-featured-filters': async (v) => {
    const found = await searchIds(v, `?featured=true&guid=${encodeURIComponent(plainExt.guid!)}`);
    return !found.includes(plainExt.id);
  },
  'autocomplete-legacy-suggestion': async (v) => {
    const [suggestion] = (await autocomplete(v, '?q=gate')).results as Json[];
    return agree('suggestion', !('type' in suggestion), !('promoted' in suggestion));
  },
  'disco-legacy-addon-subset': async (v) => {
    const [item] = (await discovery(v)).results as Json[];
    return agree('discovery add-on', !('authors' in item.addon), !('ratings' in item.addon));
  },
  'disco-china-edition-only': async (v) => {
    const standard = await discoveryIds(v);
    const china = await discoveryIds(v, '?edition=china');
    if (JSON.stringify(standard) === JSON.stringify(china)) throw new Error('the China pane is the default one');
    const alias = JSON.stringify(await discoveryIds(v, '?edition=MozillaOnline'));
    return agree('MozillaOnline', alias === JSON.stringify(standard), alias !== JSON.stringify(china));
  },
  'accounts-username-editable': async (v) => {
    const username = `renamed-${v}`;
    const body = await ok(await call(t, 'patch', `/api/${v}/accounts/account/${renamer.id}/`, renamer, { username }));
    return body.username === username;
  },
  'accounts-delete-anonymises': async (v) => {
    const developer = await caller(t, { username: `leaving-dev-${++accountCount}` });
    await createAddon(t.em(), { authors: [{ id: developer.id }] });
    const res = await call(t, 'delete', `/api/${v}/accounts/account/${developer.id}/`, developer);
    if (res.status !== 204 && res.status !== 400) throw new Error(`unexpected ${res.status}: ${res.text}`);
    return res.status === 400;
  },
  'accounts-legacy-notifications': async (v) => {
    const body = await get(`/api/${v}/accounts/account/${plain.id}/notifications/`, plain);
    return (body as unknown as { name: string }[]).some((n) => n.name === 'dev_thanks');
  },
  'collections-editors-act-on-any': async (v) => {
    const path = `/api/${v}/accounts/account/${collector.id}/collections/${COLLECTION}/`;
    const res = await call(t, 'patch', path, collectionEditor, {});
    if (res.status !== 200 && res.status !== 403) throw new Error(`unexpected ${res.status}: ${res.text}`);
    return res.status === 200;
  },
};

beforeAll(async () => {
  t = await startTestApp({ extraRoutes: probeRoutes });
  dev = await caller(t, { username: 'gate-dev', name: 'Gate Developer' });
  plain = await caller(t, { username: 'gate-plain' });
  renamer = await caller(t, { username: 'gate-renamer' });
  collector = await caller(t, { username: 'gate-collector' });
  collectionEditor = await caller(t, { permission: ['Collections:Edit'] });
  flagger = await caller(t, { username: 'gate-flagger' });
  const alice = await caller(t, { username: 'gate-alice' });
  const bob = await caller(t, { username: 'gate-bob' });
  const curator = await caller(t, { permission: ['Admin:Curation'] });

  const em = t.em();
  const categoryId = await firstExtensionCategoryId(em);
  const authors = [{ id: dev.id }];
  ext = await createAddon(em, {
    slug: 'gate-ext',
    guid: 'gate-ext@example.com',
    name: { 'en-US': 'Gate Extension', fr: 'Extension du portail' },
    homepage: { 'en-US': 'https://example.com/home' },
    supportUrl: { 'en-US': 'https://example.com/support' },
    contributionsUrl: 'https://example.com/donate',
    categoryIds: [categoryId],
    promotedCategory: PromotedCategory.RECOMMENDED,
    promotedApps: [App.BROWSER],
    averageDailyUsers: 50,
    weeklyDownloads: 50,
    authors,
    previews: 1,
    featured: [{ app: App.BROWSER }],
    versions: [{ version: '1.0', compat: { [App.BROWSER]: ['57.0', '*'], [App.SUITE]: ['2.49', '*'] } }],
  });
  plainExt = await createAddon(em, {
    slug: 'gate-plain-ext',
    guid: 'gate-plain-ext@example.com',
    name: { 'en-US': 'Gate Plain' },
    authors,
  });
  theme = await createAddon(em, { slug: 'gate-theme', type: AddonType.STATICTHEME, authors });
  lite = await createAddon(em, { slug: 'gate-lite', status: AddonStatus.LITE, authors });
  byDownloads = await createAddon(em, { tags: ['gate-sort'], weeklyDownloads: 1000, averageDailyUsers: 1 });
  byUsers = await createAddon(em, { tags: ['gate-sort'], weeklyDownloads: 1, averageDailyUsers: 1000 });
  const [version] = await versionsOf(em, ext);
  versionId = version.id;
  await attachPackage(t, version, { 'manifest.json': '{"manifest_version": 2, "name": "Gate", "version": "1.0"}' });

  // Ratings: alice's (replied to by the developer, flagged) and bob's.
  const rate = async (who: Caller, score: number) => {
    await clearThrottles(t);
    const body = { addon: ext.id, version: versionId, score, body: `Scored ${score}.` };
    return (await ok(await call(t, 'post', '/api/v4/ratings/rating/', who, body), 201)).id as number;
  };
  rating = await rate(alice, 5);
  lowRating = await rate(bob, 1);
  await clearThrottles(t);
  await ok(await call(t, 'post', `/api/v4/ratings/rating/${rating}/reply/`, dev, { body: 'Thanks!' }), 201);
  await clearThrottles(t);
  await ok(
    await call(t, 'post', `/api/v4/ratings/rating/${rating}/flag/`, flagger, { flag: 'rating_flag_reason_spam' }),
    202,
  );

  // A review note on the current version.
  await ok(
    await call(t, 'post', `/api/v4/addons/addon/${ext.id}/versions/${versionId}/reviewnotes/`, dev, {
      comments: 'A note for the reviewers.',
    }),
    201,
  );

  // A collection holding the extension.
  const collections = `/api/v4/accounts/account/${collector.id}/collections/`;
  await ok(await call(t, 'post', collections, collector, { name: 'Gate picks', slug: COLLECTION }), 201);
  await ok(await call(t, 'post', `${collections}${COLLECTION}/addons/`, collector, { addon: ext.id }), 201);

  // Discovery: the extension in the default pane, the theme in the China one.
  const discoveryItem = async (input: Json) => {
    const res = await t.http.post('/graphql').set('Authorization', `Bearer ${curator.token}`).send({
      query: 'mutation($input: DiscoveryItemInput!) { createDiscoveryItem(input: $input) { id } }',
      variables: { input },
    });
    if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  };
  await discoveryItem({ addon: 'gate-ext', position: 1, customDescription: { 'en-US': 'Try it' } });
  await discoveryItem({ addon: 'gate-theme', positionChina: 1 });

  // A block of an add-on id this site does not have.
  const blocker = await caller(t, { permission: ['Blocklist:Create'] });
  const blocked = await t.http.post('/graphql').set('Authorization', `Bearer ${blocker.token}`).send({
    query: 'mutation { createBlock(input: { guid: "gate-blocked@example.com", reason: "Malware" }) { id } }',
  });
  if (blocked.body.errors) throw new Error(JSON.stringify(blocked.body.errors));
}, 120_000);
afterAll(() => t?.close());

describe('the gate table', () => {
  it('names known gates, without duplicates, each active in some version', () => {
    const names = Object.keys(GATES);
    for (const version of API_VERSIONS) {
      const list = API_GATES[version];
      expect(new Set(list).size).toBe(list.length);
      expect(list.filter((name) => !names.includes(name))).toEqual([]);
    }
    const inactive = names.filter((name) => !API_VERSIONS.some((v) => API_GATES[v].includes(name as Gate)));
    expect(inactive).toEqual([]);
  });

  it('has a probe for every gate, and none for unknown ones', () => {
    expect(Object.keys(probes).sort()).toEqual(Object.keys(GATES).sort());
  });
});

describe('each gate differs exactly where the table says', () => {
  it.each(Object.keys(GATES) as Gate[])('%s', async (name) => {
    const seen: Record<string, boolean> = {};
    for (const version of API_VERSIONS) seen[version] = await probes[name](version);
    const table = Object.fromEntries(API_VERSIONS.map((v) => [v, API_GATES[v].includes(name)]));
    expect(seen).toEqual(table);
  });
});
