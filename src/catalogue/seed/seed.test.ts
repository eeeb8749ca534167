import type { EntityManager } from '@mikro-orm/postgresql';
import { startTestApp, type TestApp } from '../../../test/helpers/app.js';
import { AppError } from '../../core/errors.js';
import { textArray } from '../../db/sql.js';
import { syncPostings } from '../../search/postgres.postings.js';
import { FileStatus, versionInt } from '../catalogue.enums.js';
import { SEEDED_TABLES } from './model.js';
import { seedCatalogue } from './seed.js';
import { generateUser } from './users.js';
import { Vocabulary } from './vocabulary.js';

/** Seeding into a real database (PGlite, or PostgreSQL with DATABASE_URL): determinism and consistency. */
const N = 300;
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestApp(), startTestApp()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const rows = <T>(em: EntityManager, sql: string, params: unknown[] = []) =>
  em.getConnection().execute<T[]>(sql, params);
const one = async (em: EntityManager, sql: string, params: unknown[] = []) =>
  Number(Object.values((await rows<Record<string, unknown>>(em, sql, params))[0])[0]);

/** Every index definition of the seeded tables and of the search postings (deferred alike). */
const indexes = async (em: EntityManager) =>
  (
    await rows<{ indexdef: string }>(
      em,
      `select indexdef from pg_indexes where tablename = any(?::text[]) order by indexname`,
      [textArray([...SEEDED_TABLES, 'addon_search_postings'])],
    )
  ).map((r) => r.indexdef);

/** A digest of every row of every seeded table, in id order. */
async function digest(em: EntityManager): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of SEEDED_TABLES) {
    const [row] = await rows<{ md5: string }>(
      em,
      `select md5(string_agg(t::text, '|' order by t.id)) as md5 from "${table}" t`,
    );
    out[table] = row.md5;
  }
  return out;
}

describe('seedCatalogue', () => {
  let first: Awaited<ReturnType<typeof seedCatalogue>>;
  beforeAll(async () => {
    // Small batches: several statements, two in flight at a time.
    first = await seedCatalogue(a.em(), { addons: N, seed: 11, batchSize: 64 });
  }, 120_000);

  it('reports what it wrote', async () => {
    const em = a.em();
    expect(first).toMatchObject({ addons: N, users: N / 3, seed: 11, firstAddonId: 1 });
    expect(first.versions).toBe(await one(em, 'select count(*) from versions'));
    expect(first.files).toBe(await one(em, 'select count(*) from files'));
    expect(first.previews).toBe(await one(em, 'select count(*) from previews'));
    expect(first.authors).toBe(await one(em, 'select count(*) from addon_users'));
    expect(first.compat).toBe(await one(em, 'select count(*) from version_compat'));
    expect(first.users).toBe(await one(em, 'select count(*) from users'));
    expect(first.versions).toBeGreaterThan(N);
    expect(first.seconds).toBeGreaterThanOrEqual(0);
  });

  it('rolls everything back on a failure, the dropped indexes included', async () => {
    const em = b.em();
    const before = await indexes(em);
    expect(before.length).toBeGreaterThan(5);
    // A user holding the username the seed will generate for its first user (id 1000000).
    const taken = generateUser(11, 1_000_000, new Vocabulary()).username;
    await rows(em, `insert into users (id, username, email) values (999999, ?, 'taken@example.com')`, [taken]);
    await expect(seedCatalogue(em, { addons: N, seed: 11 })).rejects.toThrow(/users_username_unique/);
    expect(await one(em, 'select count(*) from addons')).toBe(0);
    expect(await indexes(em)).toEqual(before);
    await rows(em, 'delete from users where id = 999999');
  });

  it('rebuilds the indexes it dropped, as they were', async () => {
    expect(await indexes(a.em())).toEqual(await indexes(b.em()));
  });

  it("writes the postings the add-on rows give, their index deferred like the catalogue tables' ones", async () => {
    const em = a.em();
    expect(await indexes(em)).toContain(
      'CREATE INDEX addon_search_postings_top ON public.addon_search_postings USING btree (lexeme, score DESC, addon_id DESC)',
    );
    expect(await one(em, 'select count(*) from addon_search_postings')).toBeGreaterThan(N * 10);
    // Nothing to add or remove: exactly the postings computed from the rows.
    expect(await syncPostings((q) => rows(em, q.text, [...q.params]))).toEqual({ inserted: 0, deleted: 0 });
  });

  it('writes the same rows for the same seed, and other rows for another', async () => {
    const em = b.em();
    await seedCatalogue(em, { addons: N, seed: 11 });
    const same = await digest(em);
    expect(same).toEqual(await digest(a.em()));
    await em.getConnection().execute(`truncate ${SEEDED_TABLES.join(', ')} restart identity cascade`);
    await seedCatalogue(em, { addons: N, seed: 12 });
    const other = await digest(em);
    for (const table of SEEDED_TABLES) if (table !== 'featured_addons') expect(other[table]).not.toBe(same[table]);
  }, 120_000);

  it('draws types and statuses roughly as intended', async () => {
    const em = a.em();
    const share = async (where: string) => (await one(em, `select count(*) from addons where ${where}`)) / N;
    expect(await share('type = 1')).toBeGreaterThan(0.5);
    expect(await share('type = 1')).toBeLessThan(0.7);
    expect(await share('type = 10')).toBeGreaterThan(0.22);
    expect(await share('type = 10')).toBeLessThan(0.38);
    expect(await share('status = 4')).toBeGreaterThan(0.84);
    expect(await share('status = 4')).toBeLessThan(0.96);
    expect(await share('current_version_id is not null')).toBe(await share('status = 4'));
    expect(await share(`search_vector @@ to_tsquery('english', 'tab')`)).toBeGreaterThan(0.3);
  });

  it('keeps the denormalised columns consistent with their sources', async () => {
    const em = a.em();
    const violations = (sql: string, params: unknown[] = []) => one(em, `select count(*) from (${sql}) v`, params);
    // current_version_id: the latest approved, listed, not deleted version.
    expect(
      await violations(`select a.id from addons a left join lateral (
          select v.id from versions v join files f on f.version_id = v.id
          where v.addon_id = a.id and v.channel = 2 and not v.deleted and f.status = 4
          order by v.id desc limit 1) c on true
        where a.current_version_id is distinct from c.id`),
    ).toBe(0);
    // compat_*: the current version's compatibility, in application order; platforms: its files'.
    expect(
      await violations(`select a.id from addons a
        left join lateral (select coalesce(array_agg(application order by application), '{}') as apps,
            coalesce(array_agg(min_int order by application), '{}') as mins,
            coalesce(array_agg(max_int order by application), '{}') as maxs
          from version_compat where version_id = a.current_version_id) c on true
        where a.compat_apps <> c.apps or a.compat_min <> c.mins or a.compat_max <> c.maxs
          or a.platforms <> array(select distinct platform from files
            where version_id = a.current_version_id order by 1)`),
    ).toBe(0);
    // last_updated: when the current version was approved.
    expect(
      await violations(`select a.id from addons a left join versions v on v.id = a.current_version_id
        where a.last_updated is distinct from v.reviewed`),
    ).toBe(0);
    // Categories of the add-on's type, for an application its versions support.
    expect(
      await violations(`select a.id from addons a cross join unnest(a.category_ids) as cid
        left join categories c on c.id = cid
        where c.id is null or c.type <> a.type or not exists (select 1 from versions v
          join version_compat vc on vc.version_id = v.id where v.addon_id = a.id and vc.application = c.application)`),
    ).toBe(0);
    // Tags of the tag list alone.
    expect(await violations(`select 1 from addons, unnest(tags) t where t not in (select tag_text from tags)`)).toBe(0);
    expect(
      await violations(`select id from addons where (promoted_category is null) <> (promoted_apps = '{}')
        or not promoted_apps <@ compat_apps or (promoted_category is not null and status <> 4)`),
    ).toBe(0);
    expect(
      await violations(`select id from addons where (type = 10) <> (colors is not null)
        or (colors is not null and jsonb_typeof(colors) <> 'array')`),
    ).toBe(0);
  });

  it('writes well-formed versions, files, authors and users', async () => {
    const em = a.em();
    const violations = (sql: string) => one(em, `select count(*) from (${sql}) v`);
    expect(
      await violations(`select f.id from files f join versions v on v.id = f.version_id join addons a on a.id = v.addon_id
        where f.filename <> a.slug || '-' || v.version || '.xpi' or f.hash !~ '^sha256:[0-9a-f]{64}$'`),
    ).toBe(0);
    expect(await violations(`select id from versions where version !~ '^\\d+\\.\\d+(\\.\\d+)?$'`)).toBe(0);
    // Approved files are signed (the update service offers them), others not.
    expect(await violations(`select id from files where is_signed <> (status = ${FileStatus.APPROVED})`)).toBe(0);
    expect(await one(em, `select count(*) from files where is_signed`)).toBeGreaterThan(0);
    expect(
      await violations(`select a.id from addons a where not exists (select 1 from addon_users u
        where u.addon_id = a.id and u.position = 0 and u.role = 5)`),
    ).toBe(0);
    expect(await violations(`select id from users where email <> lower(email) or username = ''`)).toBe(0);
    const compat = await rows<{ min: string; max: string; min_int: string; max_int: string }>(
      em,
      'select distinct min, max, min_int, max_int from version_compat',
    );
    for (const c of compat) {
      expect(Number(c.min_int)).toBe(versionInt(c.min));
      expect(Number(c.max_int)).toBe(versionInt(c.max));
    }
    // Every sequence is past the ids written.
    for (const table of SEEDED_TABLES) {
      const max = await one(em, `select coalesce(max(id), 0) from "${table}"`);
      expect(await one(em, `select nextval(pg_get_serial_sequence('${table}', 'id'))`)).toBeGreaterThan(max);
    }
  });

  it('refuses a catalogue that has add-ons, unless appending', async () => {
    const em = a.em();
    const refused = await seedCatalogue(em, { addons: 10 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('CONFLICT');
    expect((refused as AppError).message).toContain('--append');
    const before = await one(em, 'select max(id) from addons');
    // Same seed again: new ids, hence new add-ons, and no slug or guid collision.
    const appended = await seedCatalogue(em, { addons: 50, seed: 11, append: true });
    expect(appended.firstAddonId).toBeGreaterThan(before);
    expect(await one(em, 'select count(*) from addons')).toBe(N + 50);
    expect(await one(em, 'select count(distinct slug) from addons')).toBe(N + 50);
    expect(await one(em, 'select count(*) from users')).toBe(N / 3 + 17);
  });

  it('rejects bad options', async () => {
    for (const addons of [0, -1, 1.5]) {
      await expect(seedCatalogue(b.em(), { addons, append: true })).rejects.toMatchObject({ code: 'BAD_PARAMETER' });
    }
    await expect(seedCatalogue(b.em(), { addons: 1, seed: -3, append: true })).rejects.toMatchObject({
      code: 'BAD_PARAMETER',
    });
  });
});
