import { commands } from '../src/cli/commands.js';
import { t as translate } from '../src/core/i18n/messages.js';
import { startTestApp, type TestApp } from './helpers/app.js';

const ENGLISH =
  "Some features are temporarily disabled while we perform website maintenance. We'll be back to full capacity shortly.";

let t: TestApp;
let admin: string;
let user: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = `Bearer ${(await t.createUser({ group: ['Admins'], session: true })).sessionToken}`;
  user = `Bearer ${(await t.createUser({ session: true })).sessionToken}`;
});
afterAll(() => t.close());

const siteSet = (values: Record<string, string>) => commands['site:set'].run(t.app.services, t.em(), values);
const gql = (query: string, authorization = user) =>
  t.http.post('/graphql').set('Authorization', authorization).send({ query });

describe('site status', () => {
  afterEach(() => siteSet({ 'read-only': 'false', notice: '' }));

  it('is served at /api/v4/site/ only (v3 has none)', async () => {
    const res = await t.http.get('/api/v4/site/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.text).toBe('{"read_only":false,"notice":null}');
    expect((await t.http.get('/api/v3/site/')).status).toBe(404);
  });

  it('shows what the operator set, also inside the v4 profile', async () => {
    expect(await siteSet({ 'read-only': 'true', notice: 'Back at 10:00 UTC' })).toEqual({
      read_only: true,
      notice: 'Back at 10:00 UTC',
    });
    expect((await t.http.get('/api/v4/site/')).body).toEqual({ read_only: true, notice: 'Back at 10:00 UTC' });
    const v4 = await t.http.get('/api/v4/accounts/profile/').set('Authorization', user);
    expect(v4.body.site_status).toEqual({ read_only: true, notice: 'Back at 10:00 UTC' });
    const v3 = await t.http.get('/api/v3/accounts/profile/').set('Authorization', user);
    expect(v3.body).not.toHaveProperty('site_status');
  });

  it('answers every REST write with a localized 503 while reads keep working', async () => {
    await siteSet({ 'read-only': 'true' });
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      for (const path of ['/api/v4/site/', '/api/v3/accounts/profile/', '/api/v4/anything/at/all/']) {
        const res = await t.http[method](path).set('Authorization', user).send({});
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toBe('application/json');
        expect(res.body).toEqual({ error: ENGLISH });
      }
    }
    expect((await t.http.post('/api/v4/site/?lang=de')).body).toEqual({ error: translate('readOnly', 'de') });
    expect((await t.http.post('/api/v4/site/').set('Accept-Language', 'fr-CA, en;q=0.3')).body).toEqual({
      error: translate('readOnly', 'fr'),
    });
    expect(translate('readOnly', 'de')).not.toBe(ENGLISH);
    expect((await t.http.get('/api/v4/site/')).status).toBe(200);
    expect((await t.http.get('/api/v4/accounts/profile/').set('Authorization', user)).status).toBe(200);
  });

  it('fails every GraphQL mutation the same way, and lets queries through', async () => {
    await siteSet({ 'read-only': 'true' });
    const res = await gql('mutation { acceptDeveloperAgreement { id } }');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body.errors[0]).toMatchObject({ message: ENGLISH, extensions: { code: 'READ_ONLY' } });
    expect(res.body.data).toBeUndefined();
    const de = await t.http
      .post('/graphql')
      .set('Authorization', user)
      .set('Accept-Language', 'de')
      .send({ query: 'mutation { revokeApiKey }' });
    expect(de.body.errors[0].message).toBe(translate('readOnly', 'de'));
    expect((await gql('{ siteStatus { readOnly } me { id } }')).body.data.siteStatus).toEqual({ readOnly: true });
  });

  it('lets an admin turn maintenance off through GraphQL, and nobody else', async () => {
    await siteSet({ 'read-only': 'true' });
    const denied = await gql('mutation { updateSiteStatus(input: { readOnly: false }) { readOnly } }');
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const anonymous = await t.http
      .post('/graphql')
      .send({ query: 'mutation { updateSiteStatus(input: { readOnly: false }) { readOnly } }' });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const done = await gql(
      'mutation { updateSiteStatus(input: { readOnly: false, notice: "Done" }) { readOnly notice } }',
      admin,
    );
    expect(done.body.data.updateSiteStatus).toEqual({ readOnly: false, notice: 'Done' });
    expect((await t.http.get('/api/v4/site/')).body).toEqual({ read_only: false, notice: 'Done' });
    expect((await gql('mutation { acceptDeveloperAgreement { id } }')).status).toBe(200);
  });
});
