import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createAddon } from './helpers/catalogue.js';
import { keyCaller, type KeyCaller } from './helpers/callers.js';
import { waitFor } from './helpers/signing.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/** v5 add-on authors (issue 37): the original's AddonAuthorViewSet over ListingService's rules. */
let t: TestApp;
let owner: { id: number; token: string; email: string };
let developer: { id: number; token: string; email: string };
let stranger: string;

beforeAll(async () => {
  t = await startTestApp();
  const make = async (username: string, displayName?: string) => {
    const u = await t.createUser({ username, session: true, ...(displayName ? { displayName } : {}) });
    return { id: u.id, token: `Bearer ${u.sessionToken}`, email: u.email };
  };
  owner = await make('owner');
  developer = await make('developer');
  stranger = (await make('stranger')).token;
  await createAddon(t.em(), { slug: 'authored', authors: [{ id: owner.id }] });
  const added = await t.http.post('/graphql').set('Authorization', owner.token).send({
    query: `mutation { addAddonAuthor(addon: "authored", user: "developer", role: DEVELOPER, listed: false) { id } }`,
  });
  expect(added.body.errors).toBeUndefined();
}, 120_000);
afterAll(() => t.close());

const url = (rest = '') => `/api/v5/addons/addon/authored/authors/${rest}`;
const as = (token: string | null, req: ReturnType<TestApp['http']['get']>) =>
  token ? req.set('Authorization', token) : req;

describe('v5 add-on authors', () => {
  it('lists every author, listed or not, with role and address, for the add-on’s authors', async () => {
    const res = await as(developer.token, t.http.get(url()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { user_id: owner.id, name: 'owner', email: owner.email, role: 'owner', listed: true, position: 0 },
      {
        user_id: developer.id,
        name: 'developer',
        email: developer.email,
        role: 'developer',
        listed: false,
        position: 1,
      },
    ]);
    const one = await as(owner.token, t.http.get(url(`${developer.id}/`)));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ user_id: developer.id, role: 'developer' });
  });

  it('refuses anonymous callers (401) and non-authors (403); unknown authors and add-ons are 404', async () => {
    expect((await t.http.get(url())).status).toBe(401);
    const forbidden = await as(stranger, t.http.get(url()));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: expect.any(String) });
    expect((await as(owner.token, t.http.get(url('999999/')))).status).toBe(404);
    expect((await as(owner.token, t.http.get(url('abc/')))).status).toBe(404);
    expect((await as(owner.token, t.http.get('/api/v5/addons/addon/nope/authors/'))).status).toBe(404);
    expect((await as(owner.token, t.http.get('/api/v4/addons/addon/authored/authors/'))).status).toBe(404);
  });

  it('lets owners edit role, listed and position; developers may not', async () => {
    const denied = await as(developer.token, t.http.patch(url(`${developer.id}/`))).send({ listed: true });
    expect(denied.status).toBe(403);
    const res = await as(owner.token, t.http.patch(url(`${developer.id}/`))).send({ listed: true, position: 0 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: developer.id, listed: true, position: 0, role: 'developer' });
    const detail = await t.http.get('/api/v5/addons/addon/authored/');
    expect(detail.body.authors.map((a: { id: number }) => a.id)).toEqual([developer.id, owner.id]);
  });

  it('answers field errors for bad input and for the last owner or listed author, never a 500', async () => {
    const bad = await as(owner.token, t.http.patch(url(`${developer.id}/`))).send({
      role: 'boss',
      listed: 'x',
      position: -1,
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['listed', 'position', 'role']);
    const demote = await as(owner.token, t.http.patch(url(`${owner.id}/`))).send({ role: 'developer' });
    expect(demote.status).toBe(400);
    expect(demote.body).toEqual({ non_field_errors: ['An add-on must have at least one owner.'] });
    const removeOwner = await as(owner.token, t.http.delete(url(`${owner.id}/`)));
    expect(removeOwner.status).toBe(400);
    expect(removeOwner.body).toEqual({ non_field_errors: ['An add-on must have at least one owner.'] });
  });

  it('lets owners remove an author (204), who then loses access', async () => {
    expect((await as(developer.token, t.http.delete(url(`${owner.id}/`)))).status).toBe(403);
    const res = await as(owner.token, t.http.delete(url(`${developer.id}/`)));
    expect(res.status).toBe(204);
    expect((await as(developer.token, t.http.get(url()))).status).toBe(403);
    expect((await as(owner.token, t.http.delete(url(`${developer.id}/`)))).status).toBe(404);
  });
});

describe('v5 pending authors', () => {
  let invitee: { id: number; token: string; email: string };
  let other: { id: number; token: string; email: string };
  let nameless: { id: number; token: string; email: string };
  let addonId: number;
  const pending = (rest = '') => `/api/v5/addons/addon/authored/pending-authors/${rest}`;
  beforeAll(async () => {
    const make = async (username: string, name?: string) => {
      const u = await t.createUser({ username, session: true, ...(name ? { name } : {}) });
      return { id: u.id, token: `Bearer ${u.sessionToken}`, email: u.email };
    };
    invitee = await make('invitee', 'Invited Person');
    other = await make('other', 'Other Person');
    nameless = await make('nameless');
    const [row] = await t
      .em()
      .getConnection()
      .execute<{ id: number }[]>(`select id from addons where slug = 'authored'`);
    addonId = row.id;
  });

  it('lets owners invite an existing account, list, edit and withdraw invitations', async () => {
    const res = await as(owner.token, t.http.post(pending())).send({
      user_id: invitee.id,
      role: 'owner',
      listed: false,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user_id: invitee.id,
      name: 'Invited Person',
      email: invitee.email,
      role: 'owner',
      listed: false,
    });
    const outbox = join(t.app.services.config.dataDir, 'mail', 'outbox');
    const mail = await waitFor('the invitation mail', async () =>
      existsSync(outbox)
        ? readdirSync(outbox)
            .map((f) => readFileSync(join(outbox, f), 'utf8'))
            .find((m) => m.includes(`\r\nTo: ${invitee.email}\r\n`))
        : undefined,
    );
    expect(mail).toContain('Invitation to become an author of');
    // No developer hub here: the mail names the v5 endpoints that answer the invitation, which exist.
    const { SITE_URL, PORT } = t.app.services.config;
    const site = (SITE_URL ?? `http://localhost:${PORT}`).replace(/\/+$/, '');
    expect(mail).toContain(`POST ${site}/api/v5/addons/addon/${addonId}/pending-authors/confirm/`);
    expect(mail).toContain(`POST ${site}/api/v5/addons/addon/${addonId}/pending-authors/decline/`);
    expect(mail).not.toContain('/developers/addon/');
    const again = await as(owner.token, t.http.post(pending())).send({ user_id: invitee.id });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ user_id: [expect.any(String)] });
    const author = await as(owner.token, t.http.post(pending())).send({ user_id: owner.id });
    expect(author.status).toBe(400);
    const ghost = await as(owner.token, t.http.post(pending())).send({ user_id: 999999 });
    expect(ghost.status).toBe(400);
    expect(ghost.body).toEqual({ user_id: ['Account not found.'] });
    const bad = await as(owner.token, t.http.post(pending())).send({ role: 'boss' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body).sort()).toEqual(['role', 'user_id']);
    expect((await as(stranger, t.http.post(pending())).send({ user_id: other.id })).status).toBe(403);
    expect((await t.http.post(pending()).send({ user_id: other.id })).status).toBe(401);

    const list = await as(owner.token, t.http.get(pending()));
    expect(list.status).toBe(200);
    expect(list.body.map((p: { user_id: number }) => p.user_id)).toEqual([invitee.id]);
    const edited = await as(owner.token, t.http.patch(pending(`${invitee.id}/`))).send({
      role: 'developer',
      listed: true,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ role: 'developer', listed: true });
    expect((await as(owner.token, t.http.get(pending(`${invitee.id}/`)))).body).toMatchObject({ user_id: invitee.id });
    expect((await as(owner.token, t.http.get(pending(`${other.id}/`)))).status).toBe(404);

    expect((await as(owner.token, t.http.post(pending())).send({ user_id: other.id })).status).toBe(201);
    expect((await as(owner.token, t.http.delete(pending(`${other.id}/`)))).status).toBe(204);
    expect((await as(other.token, t.http.post(pending('confirm/')))).status).toBe(403);
  });

  it('lets the invitee alone confirm (becoming the last author) or decline, once', async () => {
    expect((await as(stranger, t.http.post(pending('confirm/')))).status).toBe(403);
    const confirmed = await as(invitee.token, t.http.post(pending('confirm/')));
    expect(confirmed.status).toBe(200);
    expect((await as(invitee.token, t.http.post(pending('confirm/')))).status).toBe(403);
    const authors = await as(invitee.token, t.http.get(url()));
    expect(authors.body.at(-1)).toMatchObject({ user_id: invitee.id, role: 'developer', listed: true });

    expect((await as(owner.token, t.http.post(pending())).send({ user_id: other.id })).status).toBe(201);
    expect((await as(other.token, t.http.post(pending('decline/')))).status).toBe(200);
    expect((await as(other.token, t.http.post(pending('decline/')))).status).toBe(403);
    expect((await as(other.token, t.http.post(pending('confirm/')))).status).toBe(403);
    expect((await as(owner.token, t.http.get(pending()))).body).toEqual([]);
  });

  it('refuses to invite an account without a display name, as the original', async () => {
    const res = await as(owner.token, t.http.post(pending())).send({ user_id: nameless.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ user_id: ['The account needs a display name before it can be added as an author.'] });
  });

  it('accepts API keys (JWT) as well as sessions, on every pending-authors route', async () => {
    const keyOwner: KeyCaller = await keyCaller(t, { username: 'key-owner', name: 'Key Owner' });
    const keyInvitee: KeyCaller = await keyCaller(t, { username: 'key-invitee', name: 'Key Invitee' });
    await createAddon(t.em(), { slug: 'keyed', authors: [{ id: keyOwner.id }] });
    const keyed = (rest = '') => `/api/v5/addons/addon/keyed/pending-authors/${rest}`;
    const invited = await t.http
      .post(keyed())
      .set('Authorization', keyOwner.jwt())
      .send({ user_id: keyInvitee.id, role: 'owner' });
    expect(invited.status).toBe(201);
    expect(invited.body).toMatchObject({ user_id: keyInvitee.id, name: 'Key Invitee', role: 'owner' });
    const listed = await t.http.get(keyed()).set('Authorization', keyOwner.jwt());
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: { user_id: number }) => p.user_id)).toEqual([keyInvitee.id]);
    const one = await t.http.get(keyed(`${keyInvitee.id}/`)).set('Authorization', keyOwner.jwt());
    expect(one.status).toBe(200);
    const edited = await t.http
      .patch(keyed(`${keyInvitee.id}/`))
      .set('Authorization', keyOwner.jwt())
      .send({ listed: false });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ listed: false });
    const confirmed = await t.http.post(keyed('confirm/')).set('Authorization', keyInvitee.jwt());
    expect(confirmed.status).toBe(200);
    const authors = await t.http.get('/api/v5/addons/addon/keyed/authors/').set('Authorization', keyOwner.session);
    expect(authors.body.map((a: { user_id: number }) => a.user_id)).toEqual([keyOwner.id, keyInvitee.id]);
    // Withdrawing and declining with keys too.
    const third = await keyCaller(t, { username: 'key-third', name: 'Key Third' });
    expect((await t.http.post(keyed()).set('Authorization', keyOwner.jwt()).send({ user_id: third.id })).status).toBe(
      201,
    );
    expect((await t.http.delete(keyed(`${third.id}/`)).set('Authorization', keyOwner.jwt())).status).toBe(204);
    expect((await t.http.post(keyed()).set('Authorization', keyOwner.jwt()).send({ user_id: third.id })).status).toBe(
      201,
    );
    expect((await t.http.post(keyed('decline/')).set('Authorization', third.jwt())).status).toBe(200);
    expect((await t.http.get(keyed()).set('Authorization', keyOwner.jwt())).body).toEqual([]);
  });
});
