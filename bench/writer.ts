/**
 * A background writer for the catalogue benchmark: a live catalogue is written to all the time, so
 * scenarios also run while one client edits ratings and listings through the APIs at a fixed rate
 * (BENCH_WRITES_PER_SEC, default 2), alternating a rating score change (REST PATCH) and a listing
 * summary edit (GraphQL `updateAddonListing`), each on one of 20 popular add-ons in turn.
 */
import { withClient } from './lib.js';

export interface WriterAccount {
  id: number;
  token: string;
}

export interface BackgroundWriter {
  start(): void;
  /** Stops and reports what was written (failures make the run fail). */
  stop(): Promise<{ writes: number; failures: string[] }>;
}

export const writesPerSecond = () => Number(process.env.BENCH_WRITES_PER_SEC ?? 2);

/**
 * Gives `account` something to edit on the bench database: authorship (unlisted, so answers do not
 * change shape) of 20 popular add-ons, and ratings (created through the API) of 20 others.
 */
export async function prepareWriter(
  url: string,
  base: string,
  account: WriterAccount,
): Promise<{ ratingIds: number[]; addonIds: number[] }> {
  const rows = await withClient(url, async (client) => {
    const { rows } = await client.query(
      `select id, current_version_id from addons
        where status = 4 and not disabled_by_user and current_version_id is not null
        order by average_daily_users desc, id limit 40`,
    );
    for (const row of rows.slice(0, 20)) {
      await client.query(
        `insert into addon_users (addon_id, user_id, role, listed, position) values ($1, $2, 4, false, 99)
         on conflict do nothing`,
        [row.id, account.id],
      );
    }
    return rows as { id: number; current_version_id: number }[];
  });
  const ratingIds: number[] = [];
  for (const row of rows.slice(20)) {
    // Rating posts are throttled to one a minute per user: the bench clears its own throttle.
    await withClient(url, (client) => client.query('delete from rating_throttles where user_id = $1', [account.id]));
    const res = await fetch(`${base}/api/v4/ratings/rating/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${account.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ addon: row.id, version: row.current_version_id, score: 3 }),
    });
    if (res.status !== 201) throw new Error(`writer setup: rating answered ${res.status} ${await res.text()}`);
    ratingIds.push(((await res.json()) as { id: number }).id);
  }
  return { ratingIds, addonIds: rows.slice(0, 20).map((r) => r.id) };
}

export function backgroundWriter(
  base: string,
  account: WriterAccount,
  targets: { ratingIds: number[]; addonIds: number[] },
  perSecond: number,
): BackgroundWriter {
  let timer: NodeJS.Timeout | undefined;
  let n = 0;
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const headers = { Authorization: `Bearer ${account.token}`, 'Content-Type': 'application/json' };

  const write = async (i: number) => {
    const res =
      i % 2 === 0
        ? await fetch(`${base}/api/v4/ratings/rating/${targets.ratingIds[(i / 2) % targets.ratingIds.length]}/`, {
            method: 'PATCH',
            headers,
            body: JSON.stringify({ score: 1 + (i % 5) }),
          })
        : await fetch(`${base}/graphql`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              query:
                'mutation($a: String!, $s: TranslatedInput) { updateAddonListing(addon: $a, input: { summary: $s }) { id } }',
              variables: {
                a: String(targets.addonIds[((i - 1) / 2) % targets.addonIds.length]),
                s: `Summary edited by the benchmark, write ${i}`,
              },
            }),
          });
    const body = await res.text();
    if (res.status !== 200 || body.includes('"errors"'))
      failures.push(`write ${i}: ${res.status} ${body.slice(0, 200)}`);
  };

  return {
    start() {
      if (perSecond <= 0) return;
      timer = setInterval(() => {
        const p = write(n++).catch((error: unknown) => void failures.push(String(error)));
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }, 1000 / perSecond);
    },
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return { writes: n, failures: failures.splice(0) };
    },
  };
}
