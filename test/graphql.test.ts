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

  it('takes multipart requests through graphql-upload, with the CSRF preflight header', async () => {
    const multipart = () =>
      t.http
        .post('/graphql')
        .field('operations', JSON.stringify({ query: '{ siteStatus { readOnly } }', variables: {} }))
        .field('map', '{}');
    const blocked = await multipart();
    expect(blocked.status).toBe(400);
    const res = await multipart().set('apollo-require-preflight', 'true');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { siteStatus: { readOnly: false } } });
    const malformed = await t.http
      .post('/graphql')
      .set('apollo-require-preflight', 'true')
      .field('operations', '{not json')
      .field('map', '{}');
    expect(malformed.status).toBe(400);
    expect(malformed.text).not.toMatch(/at .*\.m?js:\d+/);
  });
});
