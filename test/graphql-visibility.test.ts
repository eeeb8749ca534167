import type { Addon } from '../src/catalogue/addon.entity.js';
import { AddonStatus, App, Channel, FileStatus } from '../src/catalogue/catalogue.enums.js';
import { CollectionAddon } from '../src/collections/collection.entity.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { versionsOf } from './helpers/ratings.js';

/**
 * GraphQL answers the same rules as REST (issue 9): arguments are checked by the services, and
 * objects nested in other objects (a rating's add-on, version and writer, a collection's author
 * and add-ons) follow the visibility of the top-level queries.
 */

type Who = 'anonymous' | 'other' | 'dev' | 'writer' | 'collector' | 'admin' | 'usersEdit' | 'reviewer';

let t: TestApp;
let queries = 0;
const tokens = {} as Record<Exclude<Who, 'anonymous'>, string>;
const ids = {} as Record<Exclude<Who, 'anonymous'>, number>;
const addons = {} as Record<'open' | 'deleted' | 'disabled' | 'hidden' | 'mixed', Addon>;
/** Versions of `mixed`: listed approved, listed awaiting review, listed rejected, unlisted. */
const versions = {} as Record<'approved' | 'unreviewed' | 'rejected' | 'unlisted', number>;
const ratings = {} as Record<'open' | 'deleted' | 'disabled' | 'unreviewed' | 'unlisted', number>;

async function gql(who: Who, query: string, variables: Record<string, unknown> = {}) {
  const req = t.http.post('/graphql');
  if (who !== 'anonymous') req.set('Authorization', `Bearer ${tokens[who]}`);
  const res = await req.send({ query, variables });
  return res;
}

/** Inserts a rating directly: add-ons and versions stop being public after people rated them. */
async function rate(addon: Addon, versionId: number, userId: number): Promise<number> {
  const [row] = await t
    .em()
    .getConnection()
    .execute<{ id: number }[]>(
      'insert into ratings (addon_id, version_id, user_id, score, body) values (?, ?, ?, 4, ?) returning id',
      [addon.id, versionId, userId, 'Nice'],
    );
  return row.id;
}

beforeAll(async () => {
  t = await startTestApp({ onQuery: () => queries++ });
  const accounts: [Exclude<Who, 'anonymous'>, Parameters<TestApp['createUser']>[0]][] = [
    ['other', {}],
    ['dev', { username: 'the-dev' }],
    ['writer', { username: 'plain-writer', name: 'Plain Writer' }],
    ['collector', { username: 'plain-collector' }],
    ['admin', { group: ['Admins'] }],
    ['usersEdit', { permission: ['Users:Edit'] }],
    ['reviewer', { username: 'plain-reviewer', permission: ['Addons:Review'] }],
  ];
  for (const [who, args] of accounts) {
    const user = await t.createUser({ session: true, ...args });
    tokens[who] = user.sessionToken!;
    ids[who] = user.id;
  }
  await t.em().getConnection().execute("update users set biography = 'Private life' where id = ?", [ids.writer]);
  const em = t.em();
  const author = [{ id: ids.dev }];
  addons.open = await createAddon(em, { slug: 'vis-open', authors: author, featured: [{ app: App.BROWSER }] });
  addons.deleted = await createAddon(em, { slug: 'vis-deleted', authors: author, status: AddonStatus.DELETED });
  addons.disabled = await createAddon(em, { slug: 'vis-disabled', authors: author, disabledByUser: true });
  addons.hidden = await createAddon(em, { slug: 'vis-hidden', authors: author, status: AddonStatus.DISABLED });
  addons.mixed = await createAddon(em, {
    slug: 'vis-mixed',
    authors: author,
    featured: [{ app: App.BROWSER }],
    versions: [
      { version: '1.0' },
      { version: '1.1', fileStatus: FileStatus.AWAITING_REVIEW },
      { version: '1.2', fileStatus: FileStatus.DISABLED },
      { version: '1.3', channel: Channel.UNLISTED },
    ],
  });
  const [approved, unreviewed, rejected, unlisted] = await versionsOf(t.em(), addons.mixed);
  Object.assign(versions, {
    approved: approved.id,
    unreviewed: unreviewed.id,
    rejected: rejected.id,
    unlisted: unlisted.id,
  });
  const first = async (addon: Addon) => (await versionsOf(t.em(), addon))[0].id;
  ratings.open = await rate(addons.open, await first(addons.open), ids.writer);
  ratings.deleted = await rate(addons.deleted, await first(addons.deleted), ids.writer);
  ratings.disabled = await rate(addons.disabled, await first(addons.disabled), ids.writer);
  ratings.unreviewed = await rate(addons.mixed, versions.unreviewed, ids.writer);
  ratings.unlisted = await rate(addons.mixed, versions.unlisted, ids.other);
});
afterAll(() => t.close());

const codeOf = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
  res.body.errors?.[0]?.extensions?.code;

describe('GraphQL arguments are checked as REST checks them', () => {
  const VERSIONS = `query ($addon: String!, $filter: String) {
    addonVersions(addon: $addon, filter: $filter) { count items { id version } }
  }`;

  it('refuses an unknown version filter instead of listing every version', async () => {
    for (const who of ['anonymous', 'other'] as const) {
      const res = await gql(who, VERSIONS, { addon: addons.mixed.slug, filter: 'junk' });
      expect(codeOf(res)).toBe('BAD_PARAMETER');
      expect(res.body.errors[0].message).toBe('Invalid "filter" parameter specified.');
      expect(res.body.data).toBeNull();
    }
    // `default` is no filter name (REST refuses it too); absent or empty is the default list.
    expect(codeOf(await gql('anonymous', VERSIONS, { addon: addons.mixed.slug, filter: 'default' }))).toBe(
      'BAD_PARAMETER',
    );
    for (const filter of [null, '']) {
      const res = await gql('anonymous', VERSIONS, { addon: addons.mixed.slug, filter });
      expect(res.body.data.addonVersions.items).toEqual([{ id: versions.approved, version: '1.0' }]);
    }
    // The named filters keep their permissions.
    const all = await gql('anonymous', VERSIONS, { addon: addons.mixed.slug, filter: 'all_with_unlisted' });
    expect(codeOf(all)).toBe('UNAUTHENTICATED');
    const mine = await gql('dev', VERSIONS, { addon: addons.mixed.slug, filter: 'all_with_unlisted' });
    expect(mine.body.data.addonVersions.count).toBe(4);
  });

  it('answers a bad REST filter the same way as before', async () => {
    const res = await t.http.get(`/api/v4/addons/addon/${addons.mixed.slug}/versions/?filter=junk`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(['Invalid "filter" parameter specified.']);
  });

  it('caps featuredAddons(limit:) and refuses a negative one as a bad request', async () => {
    const FEATURED = `query ($limit: Int!) { featuredAddons(filters: { app: BROWSER }, limit: $limit) { id } }`;
    const negative = await gql('anonymous', FEATURED, { limit: -1 });
    expect(codeOf(negative)).toBe('BAD_REQUEST');
    expect(negative.body.errors[0].message).toBe('Invalid page_size parameter');
    expect(negative.status).toBeLessThan(500);
    expect((await gql('anonymous', FEATURED, { limit: 0 })).body.data.featuredAddons).toHaveLength(1);
    expect((await gql('anonymous', FEATURED, { limit: 2_000_000_000 })).body.data.featuredAddons).toHaveLength(2);
  });

  it('refuses an appVersion that is not a version, as the detail endpoint does', async () => {
    const res = await gql(
      'anonymous',
      `query ($id: String!) { addon(id: $id) { currentVersion(app: BROWSER, appVersion: "junk") { id } } }`,
      { id: addons.open.slug },
    );
    expect(codeOf(res)).toBe('BAD_REQUEST');
    expect(res.body.errors[0].message).toBe('Invalid "appversion" parameter.');
  });

  it('matches nothing with ids no row can have, instead of failing the search', async () => {
    const SEARCH = `query ($filters: AddonSearchInput) { searchAddons(filters: $filters) { count } }`;
    const byAuthor = await gql('anonymous', SEARCH, { filters: { authorIds: [1.5, 99_999_999_999] } });
    expect(byAuthor.body.errors).toBeUndefined();
    expect(byAuthor.body.data.searchAddons.count).toBe(0);
    const excluding = await gql('anonymous', SEARCH, { filters: { excludeAddons: ['99999999999'] } });
    expect(excluding.body.errors).toBeUndefined();
    expect(excluding.body.data.searchAddons.count).toBe(2);
  });
});

describe('nested objects follow the top-level visibility rules', () => {
  const RATING = `query ($id: Int!) {
    rating(id: $id) {
      addon { id status description currentVersion { files { id } } }
      addonSummary { id slug }
      version { id }
      versionSummary { id version }
      user { id biography }
      userSummary { id username name }
    }
  }`;
  const rating = async (who: Who, id: number) => {
    const res = await gql(who, RATING, { id });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.rating;
  };

  it("hides a deleted or disabled add-on's detail behind its public minimum", async () => {
    for (const who of ['anonymous', 'other', 'writer'] as const) {
      for (const key of ['deleted', 'disabled'] as const) {
        const r = await rating(who, ratings[key]);
        expect(r.addon).toBeNull();
        expect(r.addonSummary).toEqual({ id: addons[key].id, slug: addons[key].slug });
        expect(r.version).toBeNull();
        expect(r.versionSummary).toMatchObject({ version: '1.0.0' });
      }
      expect((await rating(who, ratings.open)).addon).toMatchObject({ id: addons.open.id, status: 'PUBLIC' });
    }
    // Its developer sees the disabled one, not the deleted one; Addons:ViewDeleted sees both.
    expect((await rating('dev', ratings.disabled)).addon).toMatchObject({ id: addons.disabled.id });
    expect((await rating('dev', ratings.deleted)).addon).toBeNull();
    expect((await rating('admin', ratings.deleted)).addon).toMatchObject({ status: 'DELETED' });
  });

  it('hides unreviewed and unlisted versions as the version query does', async () => {
    for (const who of ['anonymous', 'other', 'writer'] as const) {
      const unreviewed = await rating(who, ratings.unreviewed);
      expect(unreviewed.version).toBeNull();
      expect(unreviewed.versionSummary).toEqual({ id: versions.unreviewed, version: '1.1' });
      expect((await rating(who, ratings.unlisted)).version).toBeNull();
    }
    expect((await rating('dev', ratings.unreviewed)).version).toEqual({ id: versions.unreviewed });
    expect((await rating('dev', ratings.unlisted)).version).toEqual({ id: versions.unlisted });
    expect((await rating('anonymous', ratings.open)).version).not.toBeNull();
  });

  it("shows a non-developer writer's names but not the profile the user query hides", async () => {
    const USER = `query ($user: String!) { user(user: $user) { id } }`;
    for (const who of ['anonymous', 'other', 'dev'] as const) {
      expect(codeOf(await gql(who, USER, { user: String(ids.writer) }))).toBe('NOT_FOUND');
      const r = await rating(who, ratings.open);
      expect(r.user).toBeNull();
      expect(r.userSummary).toEqual({ id: ids.writer, username: 'plain-writer', name: 'Plain Writer' });
    }
    for (const who of ['writer', 'usersEdit'] as const) {
      expect((await rating(who, ratings.open)).user).toEqual({ id: ids.writer, biography: 'Private life' });
    }
  });

  it("shows a review note writer's names to the add-on's developer, not a hidden profile", async () => {
    const noted = await gql(
      'reviewer',
      `mutation ($id: Int!) { reviewVersion(versionId: $id, decision: COMMENT, comments: "Looks fine") { id } }`,
      { id: versions.unreviewed },
    );
    expect(noted.body.errors).toBeUndefined();
    const NOTES = `query ($addon: String!, $id: Int!) {
      reviewNotes(addon: $addon, versionId: $id) { items { user { id } userSummary { id username } } }
    }`;
    const [note] = (await gql('dev', NOTES, { addon: addons.mixed.slug, id: versions.unreviewed })).body.data
      .reviewNotes.items;
    expect(note).toEqual({ user: null, userSummary: { id: ids.reviewer, username: 'plain-reviewer' } });
    const own = await gql('reviewer', NOTES, { addon: addons.mixed.slug, id: versions.unreviewed });
    expect(own.body.data.reviewNotes.items[0].user).toEqual({ id: ids.reviewer });
  });

  it("shows developers' profiles through nested paths, like the user query", async () => {
    const res = await gql(
      'anonymous',
      `query ($id: String!) { addon(id: $id) { authors { user { id } userSummary { username } } } }`,
      { id: addons.open.slug },
    );
    expect(res.body.data.addon.authors).toEqual([{ user: { id: ids.dev }, userSummary: { username: 'the-dev' } }]);
  });

  it("hides collection add-ons and a non-developer collector's profile as the top-level queries do", async () => {
    const created = await gql(
      'collector',
      `mutation ($user: String!) { createCollection(user: $user, input: { name: "Mine", slug: "vis-mine" }) { id } }`,
      { user: String(ids.collector) },
    );
    const collectionId = created.body.data.createCollection.id as number;
    const em = t.em();
    for (const addon of [addons.open, addons.deleted, addons.disabled, addons.hidden]) {
      em.create(CollectionAddon, { collection: collectionId, addon: addon.id, notes: null, created: new Date() });
    }
    await em.flush();
    const ITEMS = `query ($user: String!) {
      collection(user: $user, slug: "vis-mine") {
        author { id }
        authorSummary { id username }
        addons(filter: "all_with_deleted") { addon { id status name } }
      }
      collectionAddons(user: $user, slug: "vis-mine", filter: "all_with_deleted", sort: "added") {
        items { addon { id summary } }
      }
      collectionAddon(user: $user, slug: "vis-mine", addon: "vis-deleted") { addon { id } }
    }`;
    const visibleIds = (items: { addon: { id: number } | null }[]) => items.map((i) => i.addon?.id ?? null).sort();
    for (const who of ['anonymous', 'other', 'collector'] as const) {
      const res = await gql(who, ITEMS, { user: String(ids.collector) });
      expect(res.body.errors).toBeUndefined();
      const { collection, collectionAddons, collectionAddon } = res.body.data;
      expect(collection.addons).toHaveLength(4);
      expect(visibleIds(collection.addons)).toEqual([addons.open.id, null, null, null].sort());
      expect(visibleIds(collectionAddons.items)).toEqual([addons.open.id, null, null, null].sort());
      expect(collectionAddon.addon).toBeNull();
      expect(collection.authorSummary).toEqual({ id: ids.collector, username: 'plain-collector' });
      expect(collection.author).toEqual(who === 'collector' ? { id: ids.collector } : null);
    }
    // The add-ons' developer sees the disabled ones; Addons:ViewDeleted sees all.
    const dev = await gql('dev', ITEMS, { user: String(ids.collector) });
    expect(visibleIds(dev.body.data.collectionAddons.items)).toEqual(
      [addons.open.id, addons.disabled.id, addons.hidden.id, null].sort(),
    );
    const admin = await gql('admin', ITEMS, { user: String(ids.collector) });
    expect(visibleIds(admin.body.data.collectionAddons.items)).not.toContain(null);
    expect(admin.body.data.collectionAddon.addon).toEqual({ id: addons.deleted.id });

    // REST keeps the original's answer: the items in full, whatever their status.
    const rest = await t.http.get(`/api/v4/accounts/account/${ids.collector}/collections/vis-mine/addons/vis-deleted/`);
    expect(rest.status).toBe(200);
    expect(rest.body.addon).toMatchObject({ id: addons.deleted.id, status: 'deleted' });
  });

  it('checks a page of nested objects in a constant number of statements', async () => {
    // Ratings of the same kind (disabled add-ons of another developer), so that pages differ in size only.
    const rater = await t.createUser({ session: true });
    for (let i = 0; i < 3; i++) {
      const addon = await createAddon(t.em(), { authors: [{ id: ids.dev }], disabledByUser: true });
      await rate(addon, (await versionsOf(t.em(), addon))[0].id, rater.id);
    }
    const LIST = `query ($user: Int!, $pageSize: Int) {
      ratings(user: $user, pageSize: $pageSize) {
        items { addon { id } version { id } user { id } addonSummary { id } }
      }
    }`;
    queries = 0;
    const one = await gql('other', LIST, { user: rater.id, pageSize: 1 });
    const forOne = queries;
    queries = 0;
    const all = await gql('other', LIST, { user: rater.id, pageSize: 25 });
    expect(one.body.data.ratings.items).toHaveLength(1);
    expect(all.body.data.ratings.items).toHaveLength(3);
    expect(all.body.data.ratings.items.every((r: { addon: unknown }) => r.addon === null)).toBe(true);
    expect(queries).toBe(forOne);
  });
});
