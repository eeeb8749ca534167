import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate as validateOpenApi } from '@readme/openapi-parser';
import { AddonType, App } from '../src/catalogue/catalogue.enums.js';
import type { ObservedAnswer } from '../rest-compat/answer-observer.js';
import { OPENAPI_FILE, renderOpenApi } from '../scripts/openapi/render.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { checkAnswers } from './openapi/conformance.js';
import { collectAnswers } from './openapi/recorder.js';

/** The OpenAPI document of REST v5 (issue 37): valid, current, served, and true to the answers. */
const committed = () => readFileSync(OPENAPI_FILE, 'utf8');
const documentJson = () => JSON.parse(committed());

describe('docs/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validateOpenApi(documentJson());
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.specification).toBe('OpenAPI');
    expect(documentJson().openapi).toBe('3.1.0');
  });

  it('is what the route table and the schema generate (run `npm run openapi:emit` after changing routes)', async () => {
    const { text, unmatched } = await renderOpenApi();
    expect(unmatched).toEqual([]);
    expect(text).toBe(committed());
  }, 180_000);

  it('documents every v5 route of the table, its path parameters required', async () => {
    const { routes } = await import('../rest-compat/routes/index.js');
    const document = documentJson();
    const missing = routes
      .filter((r) => (r.versions as readonly string[]).includes('v5'))
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/<([a-z_]+)>/gi, '{$1}')}`)
      .filter((key) => {
        const [method, path] = key.split(' ') as [string, string];
        return !document.paths[path]?.[method];
      });
    expect(missing).toEqual([]);
    const detail = document.paths['/addons/addon/{addon}/'].get;
    expect(detail.parameters).toEqual(
      expect.arrayContaining([{ name: 'addon', in: 'path', required: true, schema: { type: 'string' } }]),
    );
    // Query parameters come from what the route's functions read.
    const names = (path: string) =>
      document.paths[path].get.parameters.map((p: { name?: string; $ref?: string }) => p.name ?? p.$ref);
    expect(names('/addons/language-tools/')).toEqual(expect.arrayContaining(['app', 'appversion', 'author', 'type']));
    expect(names('/addons/search/')).toEqual(expect.arrayContaining(['q', 'sort', 'page', 'page_size', 'promoted']));
  });

  it('decides the gates for v5: a field v5 drops is not documented, one it keeps is required', () => {
    const schemas = documentJson().components.schemas;
    const addon = Object.values(schemas as Record<string, any>).find(
      (s) => s.properties?.ratings_url && s.properties?.current_version,
    );
    expect(addon).toBeDefined();
    expect(addon.properties.is_source_public).toBeUndefined(); // is-source-public-shim: v3 only
    expect(addon.properties.created).toBeDefined(); // del-addons-created-field: v3 only
    expect(addon.required).toEqual(expect.arrayContaining(['promoted', 'is_noindexed', 'created', 'icons']));
    expect(addon.additionalProperties).toBe(false);
  });
});

describe('the served document and the answers', () => {
  let t: TestApp;
  let recorder: ReturnType<typeof collectAnswers>;
  beforeAll(async () => {
    t = await startTestApp();
    recorder = collectAnswers();
    await createAddon(t.em(), { slug: 'openapi-extension', name: { 'en-US': 'An extension', fr: 'Une extension' } });
    await createAddon(t.em(), {
      slug: 'openapi-language-pack',
      type: AddonType.LANGUAGE,
      targetLocale: 'fr',
      versions: [{ version: '91.0', compat: { [App.BROWSER]: ['91.0', '91.*'] } }],
    });
  }, 120_000);
  afterAll(async () => {
    recorder?.stop();
    await t?.close();
  });

  it('is served at /api/v5/schema/ (also with ?format=json), as the original serves its own', async () => {
    for (const path of ['/api/v5/schema/', '/api/v5/schema/?format=json']) {
      const res = await t.http.get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.body).toEqual(documentJson());
    }
    expect((await t.http.get('/api/v5/schema/?format=yaml')).status).toBe(404);
    expect((await t.http.get('/api/v4/schema/')).status).toBe(404);
  });

  it("matches this run's v5 answers: every documented field present, no undocumented field", async () => {
    const paths = [
      '/api/v5/addons/addon/openapi-extension/',
      '/api/v5/addons/addon/openapi-extension/?lang=fr',
      '/api/v5/addons/addon/openapi-extension/versions/',
      '/api/v5/addons/search/?q=extension',
      '/api/v5/addons/search/?app=firefox&appversion=91.0',
      '/api/v5/addons/autocomplete/?q=ext',
      '/api/v5/addons/language-tools/?app=firefox',
      '/api/v5/addons/language-tools/?app=firefox&type=language&appversion=91.0',
      '/api/v5/addons/categories/',
      '/api/v5/site/',
      '/api/v5/hero/',
      '/api/v5/shelves/',
    ];
    for (const path of paths) {
      const res = await t.http.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const answers = recorder.answers.filter((a) => a.route !== '/schema/');
    expect(answers.length).toBeGreaterThanOrEqual(paths.length);
    const { routes } = await import('../rest-compat/routes/index.js');
    const product = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(checkAnswers(documentJson(), answers, product)).toEqual([]);
    // The check does fail on a missing field and on an undocumented one.
    const detail = answers.find((a) => a.route === '/addons/addon/<addon>/')!;
    const body = JSON.parse(detail.body);
    delete body.slug;
    body.surprise = 1;
    expect(checkAnswers(documentJson(), [{ ...detail, body: JSON.stringify(body) }])).toEqual([
      'GET /addons/addon/<addon>/ 200: $.surprise: field not documented',
      'GET /addons/addon/<addon>/ 200: $: missing documented field "slug"',
    ]);
  });

  // CI: OPENAPI_RECORD=<dir> while the v5 test files run, then OPENAPI_ANSWERS=<dir> on this file.
  const recorded = process.env.OPENAPI_ANSWERS;
  (recorded ? it : it.skip)('matches the answers recorded by the v5 test files (OPENAPI_ANSWERS)', async () => {
    const answers: ObservedAnswer[] = readdirSync(recorded!)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(join(recorded!, f), 'utf8').split('\n').filter(Boolean))
      .map((line) => JSON.parse(line) as ObservedAnswer);
    expect(answers.length).toBeGreaterThan(0);
    const { routes } = await import('../rest-compat/routes/index.js');
    const product = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(checkAnswers(documentJson(), answers, product)).toEqual([]);
  });
});
