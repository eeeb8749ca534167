import { startTestApp, type TestApp } from './helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('POST /graphql', () => {
  it('answers queries with Content-Type: application/json exactly', async () => {
    const res = await t.http.post('/graphql').send({ query: '{ siteStatus { readOnly notice } }' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.body).toEqual({ data: { siteStatus: { readOnly: false, notice: null } } });
  });

  it('reports invalid documents as GraphQL validation errors', async () => {
    const res = await t.http.post('/graphql').send({ query: '{ siteStatus { nope } }' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('takes multipart requests through graphql-upload, with the CSRF preflight header, from signed-in callers', async () => {
    const { sessionToken } = await t.createUser({ session: true });
    const multipart = () =>
      t.http
        .post('/graphql')
        .field('operations', JSON.stringify({ query: '{ siteStatus { readOnly } }', variables: {} }))
        .field('map', '{}');
    const blocked = await multipart().set('Authorization', `Bearer ${sessionToken}`);
    expect(blocked.status).toBe(400);
    expect(blocked.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
    // Multipart is for uploads: the body of an anonymous caller is not read.
    const anonymous = await multipart().set('apollo-require-preflight', 'true');
    expect(anonymous.status).toBe(401);
    const res = await multipart()
      .set('apollo-require-preflight', 'true')
      .set('Authorization', `Bearer ${sessionToken}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { siteStatus: { readOnly: false } } });
    const malformed = await t.http
      .post('/graphql')
      .set('Authorization', `Bearer ${sessionToken}`)
      .set('apollo-require-preflight', 'true')
      .field('operations', '{not json')
      .field('map', '{}');
    expect(malformed.status).toBe(400);
    expect(malformed.text).not.toMatch(/at .*\.m?js:\d+/);
  });
});
