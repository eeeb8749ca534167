import { existsSync, readFileSync } from 'node:fs';
import { get, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * The self-hosted GraphQL playground (issue 12, item 6), in a real browser on a network where
 * nothing but the service answers: GraphiQL loads from the service's own files, sends the session
 * token typed in its field with every request (introspection included), runs a reviewer's query
 * and shows the schema in the docs explorer.
 */

const CHROMIUM = '/usr/bin/chromium';
const VERSION = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('@graphql-yoga/graphiql/package.json'), 'utf8'),
).version;
const ASSETS = `/graphql/playground/${VERSION}`;

let t: TestApp;
let server: Server;
let origin: string;
let browser: Browser;
let reviewer: { username: string; token: string };

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's package (apt-get install chromium).`);
  }
  t = await startTestApp({ env: { JOB_WORKERS: 'false' } });
  server = await t.app.listen(0, '127.0.0.1');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const user = await t.createUser({ session: true, username: 'playground-reviewer', permission: ['Addons:Review'] });
  reviewer = { username: user.username, token: user.sessionToken! };
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

/** A page whose every request to anything but the service is aborted and recorded. */
async function isolatedPage() {
  // Wide enough that the result pane does not wrap the answers read from it.
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  const outside: string[] = [];
  const problems: string[] = [];
  const graphqlRequests: { authorization: string | undefined; body: string }[] = [];
  await context.route(
    () => true,
    (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`)) return route.continue();
      outside.push(url);
      return route.abort('blockedbyclient');
    },
  );
  const page = await context.newPage();
  page.on('request', (request) => {
    if (!request.url().startsWith(`${origin}/`) && !/^(data|blob):/.test(request.url())) outside.push(request.url());
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/graphql') {
      graphqlRequests.push({ authorization: request.headers().authorization, body: request.postData() ?? '' });
    }
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
      problems.push(`console ${message.type()}: ${message.text()}`);
    }
  });
  return { context, page, outside, problems, graphqlRequests };
}

/** The text of a Monaco editor, its lines in display order (Monaco positions them absolutely). */
function editorText(page: Page, selector: string): Promise<string> {
  return page.locator(`${selector} .view-lines`).evaluate((lines) =>
    [...lines.querySelectorAll('.view-line')]
      .map((line) => ({ top: line.getBoundingClientRect().top, text: line.textContent ?? '' }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text.replace(/\u00a0/g, ' '))
      .join('\n'),
  );
}

async function runQuery(page: Page, query: string): Promise<string> {
  const editor = page.locator('.graphiql-query-editor .monaco-editor');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type(query);
  await page.keyboard.press('Escape'); // closes the suggestions, if any are open
  await expect(editorText(page, '.graphiql-query-editor')).resolves.toBe(query);
  const before = await resultText(page);
  await page.locator('.graphiql-execute-button').click();
  // The pane shows the new answer once its text has changed and is a whole JSON document.
  for (const started = Date.now(); Date.now() - started < 20_000; await page.waitForTimeout(100)) {
    const text = await resultText(page);
    if (text !== before && isJson(text)) return text;
  }
  throw new Error(`No new answer in the result pane; it shows: ${await resultText(page)}`);
}

const resultText = async (page: Page) =>
  (await page.locator('.graphiql-response .view-lines').count()) ? editorText(page, '.graphiql-response') : '';

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

it('serves GraphiQL from the service alone; the session token field signs every request', async () => {
  const { context, page, outside, problems, graphqlRequests } = await isolatedPage();
  try {
    const response = await page.goto(`${origin}/graphql`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/default-src 'none'; script-src 'self' 'nonce-/);
    await page.locator('.graphiql-query-editor .monaco-editor').waitFor();

    // Anonymous, the reviewer's query is refused.
    const query = '{ me { username } reviewQueue { count } }';
    expect(await runQuery(page, query)).toMatch(/"code": "UNAUTHENTICATED"/);

    await page.getByLabel('Session token').fill(reviewer.token);
    const answer = await runQuery(page, query);
    expect(JSON.parse(answer)).toEqual({ data: { me: { username: reviewer.username }, reviewQueue: { count: 0 } } });
    expect(graphqlRequests.at(-1)?.authorization).toBe(`Bearer ${reviewer.token}`);

    // The token outlives a reload, and introspection carries it too.
    graphqlRequests.length = 0;
    await page.reload();
    expect(await page.getByLabel('Session token').inputValue()).toBe(reviewer.token);
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    const explorer = page.locator('.graphiql-doc-explorer');
    await explorer.getByRole('link', { name: 'Query', exact: true }).click();
    expect(await explorer.locator('.graphiql-doc-explorer-title').textContent()).toBe('Query');
    await explorer.getByRole('link', { name: 'reviewQueue', exact: true }).waitFor();
    const introspection = graphqlRequests.find((r) => r.body.includes('__schema'));
    expect(introspection?.authorization).toBe(`Bearer ${reviewer.token}`);

    expect(outside).toEqual([]);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}, 120_000);

it('keeps non-browser GETs as they were and serves only the bundle files', async () => {
  const html = await t.http.get('/graphql').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8');
  expect(html.status).toBe(200);
  expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
  // Nothing but the service's own paths: no scheme, no protocol-relative URL.
  expect(html.text).not.toMatch(/https?:|\/\/[a-z]/i);
  const assets = [...html.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
  expect(assets).toEqual([`${ASSETS}/graphiql.css`, `${ASSETS}/yoga-graphiql.umd.js`]);

  const bundle = await t.http.get(`${ASSETS}/yoga-graphiql.umd.js`);
  expect(bundle.status).toBe(200);
  expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(bundle.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  const worker = await t.http.get(`${ASSETS}/monacoeditorwork/graphql.worker..bundle.js`);
  expect(worker.status).toBe(200);
  expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8');
  // Sent as written (no client-side normalisation of dot segments).
  const raw = (path: string) =>
    new Promise<[string, number | undefined, string | undefined]>((resolve, reject) =>
      get({ host: '127.0.0.1', port: new URL(origin).port, path }, (res) => {
        res.resume();
        res.on('end', () => resolve([path, res.statusCode, res.headers['content-type']]));
      }).on('error', reject),
    );
  for (const path of [
    `${ASSETS}/../package.json`,
    `${ASSETS}/../../package.json`,
    `${ASSETS}/%2e%2e/package.json`,
    `${ASSETS}/..%2fpackage.json`,
    `${ASSETS}/monacoeditorwork/../graphiql.css`,
    `${ASSETS}//graphiql.css`,
    `${ASSETS}/nope.js`,
    `${ASSETS}/`,
    '/graphql/playground/0.0.1/graphiql.css',
    '/graphql/playground/',
  ]) {
    expect(await raw(path)).toEqual([path, 404, 'application/json']);
  }
  expect((await t.http.post(`${ASSETS}/graphiql.css`)).status).toBe(404);

  // curl, JSON clients and persisted queries: Apollo as before (the CSRF rule included).
  const json = await t.http.get('/graphql').set('Accept', 'application/json');
  expect(json.status).toBe(400);
  expect(json.headers['content-type']).toBe('application/json');
  const any = await t.http
    .get('/graphql?query=%7B%20siteStatus%20%7B%20readOnly%20%7D%20%7D')
    .set('Accept', '*/*')
    .set('apollo-require-preflight', 'true');
  expect(any.body).toEqual({ data: { siteStatus: { readOnly: false } } });
  const csrf = await t.http.get('/graphql?query=%7B%20siteStatus%20%7B%20readOnly%20%7D%20%7D').set('Accept', '*/*');
  expect(csrf.status).toBe(400);
  expect(csrf.body.errors[0].message).toMatch(/Cross-Site Request Forgery/);
});
