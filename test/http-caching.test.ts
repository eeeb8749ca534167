import { Addon } from '../src/catalogue/addon.entity.js';
import { entityTag, matchesIfNoneMatch, sharedAnswer } from '../src/core/http-caching.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';

/**
 * HTTP caching for clients and CDNs (issue 11, item 4): shared catalogue answers carry an ETag and
 * `Cache-Control: public`, conditional requests get 304, and answers that depend on the caller
 * are private.
 */

let t: TestApp;
let session: string;
let addon: Addon;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', HTTP_CACHE_MAX_AGE: '120', SITE_URL: 'http://addons.test' } });
  session = `Bearer ${(await t.createUser({ session: true })).sessionToken}`;
  addon = await createAddon(t.em(), { name: { 'en-US': 'Etagged Quokka' }, averageDailyUsers: 10 });
}, 120_000);
afterAll(() => t?.close());

const detail = () => `/api/v4/addons/addon/${addon.slug}/`;

describe('shared answers', () => {
  it('anonymous detail carries an ETag of its bytes, public caching and Vary', async () => {
    const res = await t.http.get(detail());
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(entityTag(res.text));
    expect(res.headers['cache-control']).toBe('public, max-age=120');
    expect(res.headers.vary).toBe('Accept-Language, Authorization');
    // The cached answer (second request) has the same tag.
    expect((await t.http.get(detail())).headers.etag).toBe(res.headers.etag);
  });

  it('a conditional request naming the current tag gets 304 without a body', async () => {
    const { headers } = await t.http.get(detail());
    const res = await t.http.get(detail()).set('If-None-Match', headers.etag);
    expect(res.status).toBe(304);
    expect(res.text).toBeFalsy();
    expect(res.headers.etag).toBe(headers.etag);
    expect(res.headers['cache-control']).toBe('public, max-age=120');
    const list = await t.http.get(detail()).set('If-None-Match', `"other", W/${headers.etag}`);
    expect(list.status).toBe(304);
    expect((await t.http.get(detail()).set('If-None-Match', '"other"')).status).toBe(200);
    const head = await t.http.head(detail()).set('If-None-Match', headers.etag);
    expect(head.status).toBe(304);
  });

  it('after a write the old tag no longer matches: the new answer comes with a new tag', async () => {
    const before = await t.http.get(detail());
    await t.em().nativeUpdate(Addon, { id: addon.id }, { name: { 'en-US': 'Etagged Quokka, renamed' } });
    const after = await t.http.get(detail()).set('If-None-Match', before.headers.etag);
    expect(after.status).toBe(200);
    expect(after.body.name).toEqual({ 'en-US': 'Etagged Quokka, renamed' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.headers.etag).toBe(entityTag(after.text));
  });

  it('search answers are shared for signed-in callers too (the same for everyone)', async () => {
    const anonymous = await t.http.get('/api/v4/addons/search/?q=quokka');
    const signedIn = await t.http.get('/api/v4/addons/search/?q=quokka').set('Authorization', session);
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.etag).toBe(anonymous.headers.etag);
    expect(signedIn.headers.vary).toBe('Accept-Language');
    expect(signedIn.headers['cache-control']).toBe('public, max-age=120');
    const conditional = await t.http
      .get('/api/v4/addons/search/?q=quokka')
      .set('Authorization', session)
      .set('If-None-Match', anonymous.headers.etag);
    expect(conditional.status).toBe(304);
    // Bad credentials are still refused, whatever the tag.
    const bad = await t.http
      .get('/api/v4/addons/search/?q=quokka')
      .set('Authorization', 'Bearer nonsense')
      .set('If-None-Match', anonymous.headers.etag);
    expect(bad.status).toBe(401);
  });
});

describe('answers that depend on the caller', () => {
  it('signed-in detail is private and has no tag', async () => {
    const res = await t.http.get(detail()).set('Authorization', session);
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });

  it('errors carry no tag and are never 304', async () => {
    const res = await t.http.get('/api/v4/addons/addon/no-such-addon/').set('If-None-Match', '*');
    expect(res.status).toBe(404);
    expect(res.headers.etag).toBeUndefined();
  });
});

describe('If-None-Match', () => {
  it('compares weakly, reads lists and *', () => {
    expect(matchesIfNoneMatch('"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('W/"a"', '"a"')).toBe(true);
    expect(matchesIfNoneMatch(' "b" , "a" ', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('*', '"a"')).toBe(true);
    expect(matchesIfNoneMatch('"b"', '"a"')).toBe(false);
    expect(matchesIfNoneMatch('a', '"a"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"a"')).toBe(false);
    expect(matchesIfNoneMatch(`${'"x",'.repeat(5000)}"a"`, '"a"')).toBe(false); // cut at 8 KiB
  });
});

describe('shared answers in memory (issue 23, item 6c)', () => {
  it('hold their own bytes, not a slice of a shared 8 KiB pool, for REST and GraphQL alike', () => {
    const small = [
      sharedAnswer(200, '{"detail":"Not found."}'),
      sharedAnswer(200, JSON.stringify({ a: 'é'.repeat(100) })),
    ];
    for (const answer of small) {
      expect(answer.body.buffer.byteLength).toBe(answer.body.byteLength);
      expect(answer.etag).toBe(entityTag(answer.body));
    }
    expect(small[0].body.toString()).toBe('{"detail":"Not found."}');
    const large = sharedAnswer(200, JSON.stringify({ a: 'x'.repeat(20_000) }));
    expect(large.body.buffer.byteLength).toBe(large.body.byteLength);
  });
});

describe('HTTP_CACHE_MAX_AGE=0', () => {
  it('asks clients and CDNs to revalidate every time', async () => {
    const other = await startTestApp({ env: { JOB_WORKERS: 'false', HTTP_CACHE_MAX_AGE: '0' } });
    try {
      const a = await createAddon(other.em(), {});
      const res = await other.http.get(`/api/v4/addons/addon/${a.slug}/`);
      expect(res.headers['cache-control']).toBe('public, no-cache');
    } finally {
      await other.close();
    }
  }, 120_000);
});
