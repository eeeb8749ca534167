import type { TestApp } from './app.js';
import { createAddon } from './catalogue.js';
import type { RequestSpec } from './fuzz-http.js';

/**
 * Issue 35 item 5, for the fuzz test: bursts of concurrent writes that take the same locks in
 * every order a client can make them: a rating edited (REST v4, v5 and GraphQL), deleted, replied
 * to and flagged, its author's collection renamed, filled and deleted, while its author deletes
 * the account (which removes their ratings and recounts the add-ons), as another rater of the
 * same add-ons does, and, in the last round, the developer deletes an add-on being rated and their
 * account. Each answer must still be below 500 (the fuzz test's
 * checks); the add-ons' rating columns must equal a recount afterwards.
 */

export type ConflictKind = 'rest' | 'graphql';

/** Sends one request (raw socket, the fuzz test's checks) and resolves when it is answered. */
export type SendConflict = (kind: ConflictKind, spec: RequestSpec) => Promise<unknown>;

const json = (method: string, target: string, token: string, body?: object): RequestSpec => ({
  method,
  target,
  headers: [
    ['Authorization', `Bearer ${token}`],
    ...(body ? ([['Content-Type', 'application/json']] as [string, string][]) : []),
  ],
  body: body ? JSON.stringify(body) : undefined,
});

const graphql = (token: string, query: string) => json('POST', '/graphql', token, { query });

export async function conflictBursts(t: TestApp, rounds: number, send: SendConflict): Promise<number[]> {
  const developer = await t.createUser({ session: true });
  const bystander = await t.createUser({ session: true });
  const addonIds: number[] = [];
  for (let i = 0; i < 2; i++) {
    addonIds.push((await createAddon(t.em(), { authors: [{ id: developer.id }], versions: [{}] })).id);
  }
  const rate = async (token: string) => {
    const ids: number[] = [];
    for (const addon of addonIds) {
      await t.em().getConnection().execute('delete from rating_throttles');
      const res = await t.http
        .post('/api/v4/ratings/rating/')
        .set('Authorization', `Bearer ${token}`)
        .send({ addon, score: 3, body: 'Fine.' });
      if (typeof res.body?.id === 'number') ids.push(res.body.id);
    }
    return ids;
  };
  for (let round = 0; round < rounds; round++) {
    const rater = await t.createUser({ session: true });
    const token = rater.sessionToken!;
    const ratings = await rate(token);
    // A second rater of the same add-ons leaves at the same time.
    const neighbour = await t.createUser({ session: true });
    await rate(neighbour.sessionToken!);
    const collection = `/api/v4/accounts/account/${rater.id}/collections/`;
    await t.http.post(collection).set('Authorization', `Bearer ${token}`).send({ name: 'Burst', slug: 'burst' });
    const [first, second = first] = ratings;
    const burst: [ConflictKind, RequestSpec][] = [
      ['rest', json('PATCH', `/api/v4/ratings/rating/${first}/`, token, { score: 1 + (round % 5), body: 'Edited.' })],
      ['rest', json('PATCH', `/api/v5/ratings/rating/${second}/`, token, { score: 5 })],
      ['graphql', graphql(token, `mutation { updateRating(id: ${first}, input: { score: 2 }) { id } }`)],
      ['rest', json('DELETE', `/api/v4/ratings/rating/${second}/`, token)],
      ['rest', json('POST', `/api/v4/ratings/rating/${first}/reply/`, developer.sessionToken!, { body: 'Thanks.' })],
      [
        'rest',
        json('POST', `/api/v4/ratings/rating/${first}/flag/`, bystander.sessionToken!, {
          flag: 'review_flag_reason_spam',
        }),
      ],
      ['rest', json('PATCH', `${collection}burst/`, token, { name: 'Renamed' })],
      ['rest', json('POST', `${collection}burst/addons/`, token, { addon: addonIds[0] })],
      ['rest', json('DELETE', `/api/v4/accounts/account/${rater.id}/`, token)],
      ['graphql', graphql(token, `mutation { updateRating(id: ${second}, input: { body: "Again." }) { id } }`)],
      ['rest', json('DELETE', `${collection}burst/`, token)],
      ['rest', json('DELETE', `/api/v4/accounts/account/${neighbour.id}/`, neighbour.sessionToken!)],
    ];
    if (round === rounds - 1) {
      // The developer deletes an add-on being rated, and leaves (their add-ons go with them).
      burst.push(['rest', json('DELETE', `/api/v4/addons/addon/${addonIds[1]}/`, developer.sessionToken!)]);
      burst.push(['rest', json('DELETE', `/api/v4/accounts/account/${developer.id}/`, developer.sessionToken!)]);
    }
    await Promise.all(burst.map(([kind, spec]) => send(kind, spec)));
  }
  return addonIds;
}
