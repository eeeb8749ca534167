import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { startTestApp, type TestApp } from './helpers/app.js';
import { createAddon } from './helpers/catalogue.js';
import { call, caller, clearThrottles, versionsOf, type Caller, type Method } from './helpers/ratings.js';

/*
 * Every free-text input is refused over its limit (its domain's `src/<domain>/text-limits.ts`) with
 * the DRF field message, before any pattern looks at it, and accepted at the limit. The texts are
 * the hostile ones that made the old link patterns back-track, so an answer at all is part of the
 * test.
 */

const inSrc = (path: string) => new URL(`../src/${path}`, import.meta.url);

/**
 * The domains (folders under src/ with a `module.ts` or `manifest.ts`; the core's `module.ts` is the
 * mechanism) that have a `text-limits.ts`.
 */
const LIMITED_DOMAINS = readdirSync(inSrc(''), { withFileTypes: true })
  .map((entry) => entry.name)
  .filter((name) => name !== 'core')
  .filter((name) => existsSync(inSrc(`${name}/module.ts`)) || existsSync(inSrc(`${name}/manifest.ts`)))
  .filter((name) => existsSync(inSrc(`${name}/text-limits.ts`)))
  .sort();

/** Each domain's exports from its `text-limits.ts`. */
const DECLARED: [string, Record<string, unknown>][] = await Promise.all(
  LIMITED_DOMAINS.map(async (domain) => [domain, await import(`../src/${domain}/text-limits.js`)] as const),
);

/** Every domain's limits in one map, input name to its number of characters. */
const TEXT_LIMITS: Readonly<Record<string, number>> = Object.assign(
  {},
  ...DECLARED.flatMap(([, exports]) => Object.values(exports) as Record<string, number>[]),
);

let t: TestApp;
let author: Caller;
let rater: Caller;
let addonId: number;
let addonSlug: string;
let versionIds: number[];

const tooLong = (max: number) => [`Ensure this field has no more than ${max} characters.`];
/** `n` characters that read as no link, after which the old patterns back-tracked from every dash. */
const hostile = (n: number) => 'a-'.repeat(Math.floor(n / 2)) + (n % 2 ? 'b' : '');

beforeAll(async () => {
  t = await startTestApp();
  author = await caller(t, { username: 'limits-author' });
  rater = await caller(t, { username: 'limits-rater' });
  const addon = await createAddon(t.em(), {
    authors: [{ id: author.id }],
    versions: [{ version: '1.0' }, { version: '1.1' }, { version: '1.2' }],
  });
  addonId = addon.id;
  addonSlug = addon.slug;
  versionIds = (await versionsOf(t.em(), addon)).map((v) => v.id);
});
afterAll(() => t.close());

async function send(method: Method, path: string, who: Caller, body: object) {
  await clearThrottles(t);
  return call(t, method, path, who, body);
}

const gql = (who: Caller, query: string, variables: object) =>
  t.http.post('/graphql').set('Authorization', `Bearer ${who.token}`).send({ query, variables });

describe('text limits through REST', () => {
  it.each(['v3', 'v4'])(
    'rating body (%s): one over the limit is a 400 naming the field, at the limit is fine',
    async (v) => {
      const base = v === 'v4' ? '/api/v4/ratings/rating/' : '/api/v3/reviews/review/';
      const max = TEXT_LIMITS.ratingBody;
      const version = versionIds[v === 'v4' ? 0 : 1];
      const score = v === 'v4' ? { score: 4 } : { rating: 4 };
      const over = await send('post', base, rater, { addon: addonId, version, ...score, body: hostile(max + 1) });
      expect([over.status, over.body]).toEqual([400, { body: tooLong(max) }]);

      const created = await send('post', base, rater, { addon: addonId, version, ...score, body: hostile(max) });
      expect(created.status).toBe(201);
      expect(created.body.body).toHaveLength(max);

      const edit = await send('patch', `${base}${created.body.id}/`, rater, { body: `${hostile(max)}x` });
      expect([edit.status, edit.body]).toEqual([400, { body: tooLong(max) }]);
      const edited = await send('patch', `${base}${created.body.id}/`, rater, { body: `x${hostile(max - 1)}` });
      expect(edited.status).toBe(200);

      const replyMax = TEXT_LIMITS.replyBody;
      const reply = (body: string) => send('post', `${base}${created.body.id}/reply/`, author, { body });
      expect(await reply(hostile(replyMax + 1)).then((r) => [r.status, r.body])).toEqual([
        400,
        { body: tooLong(replyMax) },
      ]);
      expect((await reply(hostile(replyMax))).status).toBe(201);
    },
  );

  it('a rating body at the limit is still checked for links (and a surrounding blank is not counted)', async () => {
    const max = TEXT_LIMITS.ratingBody;
    const body = `  ${'x'.repeat(max - 'see example.com'.length)}see example.com  `;
    const res = await send('post', '/api/v4/ratings/rating/', rater, {
      addon: addonId,
      version: versionIds[2],
      score: 2,
      body,
    });
    expect(res.status).toBe(201);
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ editor_review: boolean }[]>('select editor_review from ratings where id = ?', [res.body.id]);
    expect(row.editor_review).toBe(true);
  });

  it.each(['v3', 'v4'])('biography, display name, location (%s)', async (v) => {
    const path = `/api/${v}/accounts/account/${rater.id}/`;
    const max = TEXT_LIMITS.biography;
    const over = await send('patch', path, rater, { biography: hostile(max + 1) });
    expect([over.status, over.body]).toEqual([400, { biography: tooLong(max) }]);
    const ok = await send('patch', path, rater, { biography: hostile(max) });
    expect([ok.status, ok.body.biography]).toEqual([200, hostile(max)]);
    const links = await send('patch', path, rater, { biography: `${'x '.repeat(max / 2 - 8)}www.example.com` });
    expect([links.status, links.body]).toEqual([400, { biography: ['No links are allowed.'] }]);

    const fields = await send('patch', path, rater, {
      display_name: 'x'.repeat(TEXT_LIMITS.displayName + 1),
      location: 'x'.repeat(TEXT_LIMITS.location + 1),
      occupation: 'x'.repeat(TEXT_LIMITS.occupation),
      homepage: `https://example.com/${'x'.repeat(TEXT_LIMITS.homepage)}`,
    });
    expect([fields.status, fields.body]).toEqual([
      400,
      {
        display_name: tooLong(TEXT_LIMITS.displayName),
        location: tooLong(TEXT_LIMITS.location),
        homepage: tooLong(TEXT_LIMITS.homepage),
      },
    ]);
  });

  it('a huge body (1.5 MB) is refused at once with the field message', async () => {
    const started = performance.now();
    const res = await send('patch', `/api/v4/accounts/account/${rater.id}/`, rater, {
      biography: 'a.'.repeat(750_000),
    });
    expect([res.status, res.body]).toEqual([400, { biography: tooLong(TEXT_LIMITS.biography) }]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it.each(['v3', 'v4'])('collection name, description, notes (%s)', async (v) => {
    const base = `/api/${v}/accounts/account/${author.id}/collections/`;
    const max = TEXT_LIMITS.collectionDescription;
    const slug = `limits-${v}`;
    const over = await send('post', base, author, { name: 'Limits', slug, description: hostile(max + 1) });
    expect([over.status, over.body]).toEqual([400, { description: tooLong(max) }]);
    const created = await send('post', base, author, { name: 'Limits', slug, description: hostile(max) });
    expect(created.status).toBe(201);
    expect(created.body.description).toEqual({ 'en-US': hostile(max) });

    const patch = await send('patch', `${base}${slug}/`, author, {
      description: { fr: hostile(max + 1) },
      name: 'n'.repeat(TEXT_LIMITS.collectionName + 1),
    });
    expect([patch.status, patch.body]).toEqual([
      400,
      { name: tooLong(TEXT_LIMITS.collectionName), description: tooLong(max) },
    ]);
    const patched = await send('patch', `${base}${slug}/`, author, { description: { fr: hostile(max) } });
    expect(patched.status).toBe(200);

    const notesMax = TEXT_LIMITS.collectionNotes;
    const item = await send('post', `${base}${slug}/addons/`, author, { addon: addonId, notes: hostile(notesMax + 1) });
    expect([item.status, item.body]).toEqual([400, { notes: tooLong(notesMax) }]);
    const added = await send('post', `${base}${slug}/addons/`, author, { addon: addonId, notes: hostile(notesMax) });
    expect(added.status).toBe(201);
  });
});

describe('text limits through GraphQL (the same check, in the service)', () => {
  const UPDATE = `mutation($addon: String!, $input: UpdateAddonListingInput!) {
    updateAddonListing(addon: $addon, input: $input) { id description }
  }`;

  it('listing description and the other texts: over the limit is VALIDATION_FAILED with the field, at it is fine', async () => {
    const max = TEXT_LIMITS.addonDescription;
    const over = await gql(author, UPDATE, {
      addon: addonSlug,
      input: {
        description: hostile(max + 1),
        developerComments: { 'en-US': 'x'.repeat(TEXT_LIMITS.developerComments + 1) },
        supportEmail: `${'x@'.repeat(TEXT_LIMITS.supportEmail)}`,
        homepage: `https://example.com/${'a.'.repeat(TEXT_LIMITS.addonHomepage)}`,
        contributionsUrl: `https://example.com/${'x'.repeat(TEXT_LIMITS.contributionsUrl)}`,
      },
    });
    expect(over.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: {
        description: tooLong(max),
        developer_comments: tooLong(TEXT_LIMITS.developerComments),
        support_email: tooLong(TEXT_LIMITS.supportEmail),
        homepage: tooLong(TEXT_LIMITS.addonHomepage),
        contributions_url: tooLong(TEXT_LIMITS.contributionsUrl),
      },
    });
    const ok = await gql(author, UPDATE, { addon: addonSlug, input: { description: hostile(max) } });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateAddonListing.description).toEqual({ 'en-US': hostile(max) });
  });

  it('the account biography answers the same field error as REST', async () => {
    const res = await gql(
      rater,
      `mutation($user: String!, $input: AccountInput!) { editUser(user: $user, input: $input) { id } }`,
      { user: String(rater.id), input: { biography: hostile(TEXT_LIMITS.biography + 1) } },
    );
    expect(res.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { biography: tooLong(TEXT_LIMITS.biography) },
    });
  });
});

/**
 * README's "### Limits" table, row by row: the limits of each row's "Limit" cell (separated by
 * "/"), each the value of every domain limit listed for it at the same position.
 */
const README_ROWS: Record<string, string[][]> = {
  'Account `display_name`': [['displayName']],
  'Account `username` (v3 edit, account creation)': [['username']],
  'Account `biography`': [['biography']],
  'Account `homepage`, `location`, `occupation`, `email`': [['homepage', 'location', 'occupation', 'email']],
  'Super-create `idp_id`': [['idpId']],
  'Add-on `name` / `summary`': [['addonName'], ['addonSummary']],
  'Add-on `description`': [['addonDescription']],
  'Add-on `developer_comments`': [['developerComments']],
  'Add-on `homepage`, `support_url`, `support_email`': [['addonHomepage', 'supportUrl', 'supportEmail']],
  'Add-on `contributions_url`': [['contributionsUrl']],
  'Add-on tag': [['tag']],
  'Add-on `slug` / `eula`, `privacy_policy`': [['addonSlug'], ['addonEula', 'addonPrivacyPolicy']],
  'Custom licence name / text': [['licenseName'], ['licenseText']],
  'Preview caption': [['previewCaption']],
  'Version `release_notes` (each translation)': [['releaseNotes']],
  'Version `approval_notes`': [['approvalNotes']],
  'Collection `name`': [['collectionName']],
  'Collection `slug`': [['collectionSlug']],
  'Collection `description`, add-on `notes` in a collection': [['collectionDescription', 'collectionNotes']],
  'Rating (v3 review) `body`, reply `body`': [['ratingBody', 'replyBody']],
  'Rating flag `note`': [['flagNote']],
  'Search `q`': [['searchQuery']],
  'Reviewer decision and review note `comments`': [['reviewComments']],
  'Draft comment `comment` / `filename`': [['reviewComments'], ['draftFilename']],
  'Canned response `title` / `response` / `category`': [['cannedTitle'], ['reviewComments'], ['cannedCategory']],
  'Review queue add-on name filter': [['queueNameFilter']],
  'Inbound reply by mail (`/activity/mail/`)': [['mailBody']],
  'Denied add-on id / its comments': [['deniedGuid'], ['deniedGuidComments']],
  'Lifecycle `comment` / `reason` (disable, delete, deny)': [['lifecycleComment']],
  'Abuse report `message` / `client_id`': [['abuseMessage'], ['abuseClientId']],
  'Abuse report `addon`/`user` and its other texts': [['abuseField']],
  'Abuse report resolution `note`': [['abuseResolutionNote']],
  "Abuse reporter's address (stored)": [['abuseReporterIp']],
  'Support ticket `summary` / `body`; agreement date': [['supportSummary'], ['supportBody'], ['agreementDate']],
  'Primary shelf `description`': [['shelfDescription']],
  'Secondary shelf `headline` / `description`': [['secondaryHeadline'], ['secondaryDescription']],
  'Secondary shelf module `description`': [['moduleDescription']],
  'Shelf call-to-action `text`': [['ctaText']],
  'Shelf URLs (call to action, featured image, module icon)': [['shelfUrl']],
  'Shelf or discovery item `addon`': [['curatedAddon']],
  'Primary shelf `gradient`': [['shelfGradient']],
  'Discovery item `custom_heading` / `custom_description`': [['discoveryHeading'], ['discoveryDescription']],
  'Block `guid` / `min_version`, `max_version` / `reason` / `url`': [
    ['blockGuid'],
    ['blockVersion'],
    ['blockReason'],
    ['blockUrl'],
  ],
  'Webhook endpoint `url` / `description`': [['webhookUrl'], ['webhookDescription']],
  'Trusted publisher `issuer`, `audience` / claim name / claim value': [
    ['trustedPublisherIssuer'],
    ['trustedPublisherClaim'],
    ['trustedPublisherClaimValue'],
  ],
  'OIDC `token` / `addon` (trusted publishing exchange)': [['oidcToken'], ['oidcExchangeAddon']],
  'API key `name` (`createApiKey`)': [['apiKeyName']],
  'Sign-in `to` / `provider` / callback URL / binding / link token': [
    ['signinReturnTo'],
    ['signinProvider'],
    ['signinCallbackUrl'],
    ['signinBinding'],
    ['signinLinkToken'],
  ],
  'Home shelf `title` / `footer_text` / `criteria`': [['homeShelfTitle'], ['homeShelfFooter'], ['homeShelfCriteria']],
  'Replacement add-on `guid` / `path` / mapping `extension_id`': [
    ['replacementGuid'],
    ['replacementPath'],
    ['browserExtensionId'],
  ],
};

/** The rows of README's "### Limits" table: input label and its limits ("3,000 / 64" is [3000, 64]). */
function readmeLimits(): Map<string, number[]> {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split('\n### Limits\n')[1]?.split(/\n#{2,3} /)[0] ?? '';
  const rows = new Map<string, number[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || cells[1] === 'Input' || /^-+$/.test(cells[1])) continue;
    rows.set(
      cells[1],
      cells[2].split('/').map((limit) => Number(limit.trim().replaceAll(',', ''))),
    );
  }
  return rows;
}

describe("the domains' limits", () => {
  it('are declared by the domains, each as one `<DOMAIN>_TEXT_LIMITS` object; the core has only the check', async () => {
    expect(LIMITED_DOMAINS).toEqual(expect.arrayContaining(['accounts', 'catalogue', 'reviews', 'signin']));
    for (const [domain, exports] of DECLARED) {
      expect([domain, Object.keys(exports)]).toEqual([
        domain,
        [`${domain.toUpperCase().replaceAll('-', '_')}_TEXT_LIMITS`],
      ]);
    }
    const names = DECLARED.flatMap(([, exports]) =>
      Object.values(exports).flatMap((limits) => Object.keys(limits as object)),
    );
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    const core: Record<string, unknown> = await import('../src/core/text-limits.js');
    expect(Object.values(core).every((value) => typeof value === 'function')).toBe(true);
  });

  it('have one limit per free-text input, the original ones where they exist', () => {
    expect(TEXT_LIMITS).toMatchObject({
      displayName: 50,
      username: 150,
      homepage: 255,
      location: 255,
      occupation: 255,
      addonName: 50,
      addonSummary: 250,
      collectionSlug: 30,
      flagNote: 100,
      searchQuery: 100,
      reviewComments: 100_000,
    });
    for (const limit of Object.values(TEXT_LIMITS)) expect(Number.isInteger(limit) && limit > 0).toBe(true);
  });
});

describe('README "Limits" table', () => {
  const rows = readmeLimits();

  it('has the rows this test knows, and no others', () => {
    expect([...rows.keys()]).toEqual(Object.keys(README_ROWS));
  });

  it.each(Object.entries(README_ROWS))("%s: the limits of the domains' text-limits.ts", (input, keys) => {
    expect(rows.get(input)).toEqual(keys.map((group) => TEXT_LIMITS[group[0]]));
    for (const [i, group] of keys.entries()) {
      for (const key of group) expect([key, TEXT_LIMITS[key]]).toEqual([key, rows.get(input)?.[i]]);
    }
  });

  it("lists every limit of the domains' text-limits.ts", () => {
    const listed = new Set(Object.values(README_ROWS).flat(2));
    expect(Object.keys(TEXT_LIMITS).filter((key) => !listed.has(key))).toEqual([]);
  });
});
