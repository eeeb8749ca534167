import request from 'supertest';
import { Addon } from '../src/catalogue/addon.entity.js';
import { User } from '../src/accounts/user.entity.js';
import { startSecondProcess, startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { parseExposition, sampleValue } from './helpers/prometheus.js';

/**
 * Pages assembled from cached parts (issue 24, item 1): a search page is its engine's ids and
 * scores plus one cached part per add-on and shape; the text is the one rendered whole, byte for
 * byte, and a write outdates exactly the parts it touched (in another process too).
 */

let t: TestApp;
let session: string;
let authorId: number;

beforeAll(async () => {
  t = await startTestApp({ env: { JOB_WORKERS: 'false', SITE_URL: 'http://addons.test' } });
  session = `Bearer ${(await t.createUser({ session: true })).sessionToken}`;
  const author = await t.createUser({ name: 'Parts Author', username: 'parts-author' });
  authorId = author.id;
  // A catalogue with what a part shows: translations, authors, a homepage (wrapped links), users.
  for (let i = 0; i < 7; i++) {
    await createAddon(t.em(), {
      name: { 'en-US': `Quokka part ${i}`, fr: `Quokka pièce ${i}` },
      summary: { 'en-US': `A quokka with <a href="https://example.com/${i}">a link</a>` },
      homepage: { 'en-US': `https://example.com/home/${i}` },
      averageDailyUsers: 100 * (i + 1),
      authors: i % 2 ? [{ id: author.id }] : [],
    });
  }
}, 120_000);
afterAll(() => t?.close());

const config = () => t.app.services.config as { ANSWER_PARTS: 'on' | 'off' };
let junk = 0;
/** An answer computed now (a parameter no route reads: never an answer-cache hit). */
async function computed(path: string, auth?: string): Promise<string> {
  let req = t.http.get(`${path}${path.includes('?') ? '&' : '?'}_=${++junk}`);
  if (auth) req = req.set('Authorization', auth);
  const res = await req;
  expect([path, res.status]).toEqual([path, 200]);
  return res.text.replace(/([?&])_=\d+/g, '$1_=');
}

async function partLookups(): Promise<{ hit: number; miss: number }> {
  const { text } = await t.http.get('/metrics');
  // Only the family read here (a process metric may read NaN early in a run, which the strict parser refuses).
  const families = parseExposition(
    `${text
      .split('\n')
      .filter((line) => line.includes('addons_answer_cache_lookups_total'))
      .join('\n')}\n`,
  );
  const value = (result: string) =>
    sampleValue(families, 'addons_answer_cache_lookups_total', { cache: 'parts', result }) ?? 0;
  return { hit: value('hit'), miss: value('miss') };
}

const PATHS = [
  '/api/v4/addons/search/?q=quokka',
  '/api/v4/addons/search/?q=quokka&lang=fr',
  '/api/v4/addons/search/?q=quokka&wrap_outgoing_links',
  '/api/v4/addons/search/?q=quokka&page_size=2&page=2',
  '/api/v4/addons/search/?q=quokka&sort=users',
  '/api/v4/addons/search/?sort=created&type=extension',
  '/api/v4/addons/search/',
  '/api/v3/addons/search/?q=quokka',
  '/api/v3/addons/search/?q=quokka&lang=de',
  '/api/v4/addons/search/?q=nothing-matches-this',
];

it('a page assembled from parts is the page rendered whole, byte for byte, for every shape', async () => {
  try {
    for (const path of PATHS) {
      config().ANSWER_PARTS = 'off';
      const whole = await computed(path);
      config().ANSWER_PARTS = 'on';
      const firstAssembly = await computed(path); // parts rendered and kept
      const fromParts = await computed(path); // parts from the cache
      const signedIn = await computed(path, session);
      expect([path, firstAssembly]).toEqual([path, whole]);
      expect([path, fromParts]).toEqual([path, whole]);
      expect([path, signedIn]).toEqual([path, whole]);
    }
  } finally {
    config().ANSWER_PARTS = 'on';
  }
});

it('a page of kept parts reads none again; a write outdates exactly the parts it touched', async () => {
  const path = '/api/v4/addons/search/?q=quokka&page_size=7';
  await computed(path);
  let before = await partLookups();
  await computed(path);
  let after = await partLookups();
  expect(after.hit - before.hit).toBe(7);
  expect(after.miss - before.miss).toBe(0);

  // One add-on renamed: its part only.
  const [renamed] = await t.em().find(Addon, { averageDailyUsers: 300 });
  await t.em().nativeUpdate(Addon, { id: renamed.id }, { name: { 'en-US': 'Quokka renamed' } });
  before = await partLookups();
  const page = JSON.parse(await computed(path)) as { results: { id: number; name: Record<string, string> }[] };
  after = await partLookups();
  expect(after.miss - before.miss).toBe(1);
  expect(after.hit - before.hit).toBe(6);
  expect(page.results.find((r) => r.id === renamed.id)!.name).toEqual({ 'en-US': 'Quokka renamed' });

  // The author's new name: the parts of their add-ons (3 of the 7).
  await t.em().nativeUpdate(User, { id: authorId }, { displayName: 'Renamed Author' });
  before = await partLookups();
  const again = JSON.parse(await computed(path)) as { results: { authors: { name: string }[] }[] };
  after = await partLookups();
  expect(after.miss - before.miss).toBe(3);
  expect(again.results.flatMap((r) => r.authors.map((a) => a.name))).toEqual(Array(3).fill('Renamed Author'));
});

it('an add-on that stops being public leaves the page, as in a page rendered whole', async () => {
  const hidden = await createAddon(t.em(), { name: { 'en-US': 'Wallaby hidden soon' } });
  await createAddon(t.em(), { name: { 'en-US': 'Wallaby stays' } });
  const path = '/api/v4/addons/search/?q=wallaby';
  expect(JSON.parse(await computed(path)).results).toHaveLength(2);
  await t.em().nativeUpdate(Addon, { id: hidden.id }, { disabledByUser: true });
  const fromParts = await computed(path);
  config().ANSWER_PARTS = 'off';
  try {
    expect(fromParts).toBe(await computed(path));
  } finally {
    config().ANSWER_PARTS = 'on';
  }
  expect(JSON.parse(fromParts).results.map((r: { name: Record<string, string> }) => r.name['en-US'])).toEqual([
    'Wallaby stays',
  ]);
});

(process.env.DATABASE_URL ? describe : describe.skip)('two processes on one PostgreSQL database', () => {
  it("a write through one outdates the other's parts", async () => {
    const addon = await createAddon(t.em(), { name: { 'en-US': 'Numbat one' } });
    const path = `/api/v4/addons/search/?q=numbat`;
    const other = await startSecondProcess(t);
    try {
      const get = async () => (await request(other.express).get(`${path}&_=${++junk}`)).body;
      expect((await get()).results[0].name).toEqual({ 'en-US': 'Numbat one' });
      expect((await get()).results[0].name).toEqual({ 'en-US': 'Numbat one' }); // from its parts
      await t.em().nativeUpdate(Addon, { id: addon.id }, { name: { 'en-US': 'Numbat two' } });
      expect((await get()).results[0].name).toEqual({ 'en-US': 'Numbat two' });
    } finally {
      await other.close();
    }
  }, 60_000);
});

describe('the addons(ids:) query behind the parts', () => {
  const ADDONS = `query Addons($ids: [Int!]!) { addons(ids: $ids) { id name } }`;
  const post = (ids: number[], auth?: string) => {
    let req = t.http.post('/graphql').set('Content-Type', 'application/json');
    if (auth) req = req.set('Authorization', auth);
    return req.send({ query: ADDONS, variables: { ids } });
  };

  it('answers in the order asked, null where `addon` would refuse, and refuses more than 50 ids', async () => {
    const shown = await createAddon(t.em(), { name: { 'en-US': 'Bilby shown' } });
    const disabled = await createAddon(t.em(), { name: { 'en-US': 'Bilby disabled' }, disabledByUser: true });
    const res = await post([disabled.id, shown.id, 999_999_999, shown.id]);
    expect(res.body).toEqual({
      data: {
        addons: [
          null,
          { id: shown.id, name: { 'en-US': 'Bilby shown' } },
          null,
          { id: shown.id, name: { 'en-US': 'Bilby shown' } },
        ],
      },
    });
    const tooMany = await post(Array.from({ length: 51 }, (_, i) => i + 1));
    expect(tooMany.body.errors[0].extensions.code).toBe('BAD_REQUEST');
    expect(tooMany.body.errors[0].message).toBe('At most 50 ids.');
  });
});
