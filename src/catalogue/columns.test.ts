import { startTestApp, type TestApp } from '../../test/helpers/app.js';
import { selectList, writeColumns, type ColumnMap, type Table } from '../db/columns.js';
import { selectRows } from '../db/rows.js';
import { Addon } from './addon.entity.js';
import { ADDON_TABLE, AUTHOR_TABLE, PREVIEW_TABLE } from './addon.columns.js';
import {
  ADDON_COLUMNS,
  AUTHOR_COLUMNS,
  COMPAT_COLUMNS,
  FILE_COLUMNS,
  PREVIEW_COLUMNS,
  VERSION_COLUMNS,
  toAddonRecord,
  toAuthorRecord,
  toCompatRecord,
  toFileRecord,
  toPreviewRecord,
  toVersionRecord,
  type AddonRow,
  type AuthorRow,
  type CompatRow,
  type FileRow,
  type PreviewRow,
  type VersionRow,
} from './catalogue.records.js';
import { knexQuery } from './seed/database.js';
import { AddonBatch } from './seed/model.js';
import { ADDONS, AUTHORS, COMPAT, FILES, PREVIEWS, VERSIONS, writeBatch } from './seed/writer.js';
import { AddonFile, Version } from './version.entity.js';
import { COMPAT_TABLE, FILE_TABLE, VERSION_TABLE } from './version.columns.js';

/**
 * The column maps (`addon.columns.ts`, `version.columns.ts`) are the one list of each table's
 * columns: the select lists, the row mappers and the seed writer's columns all come from them.
 * Here one add-on with a version, a file, a compatibility and a preview, every column set to a
 * value unlike its default, goes in through the seed writer and comes back through the select
 * lists and mappers, on the database the suite runs on (PGlite, or PostgreSQL with DATABASE_URL).
 */

const T = Date.UTC(2024, 4, 6, 7, 8, 9, 123);
const ms = (n: number) => T + n * 1000;
/** Comparable version integers past 32 bits (their exact values do not matter here). */
const MIN_INT = 60_000_000_000_001;
const MAX_INT = 99_999_999_999_999;

function batch(licenseId: number, userId: number): AddonBatch {
  const b = new AddonBatch();
  b.addons.push({
    id: 7001,
    guid: 'columns@example.com',
    slug: 'column-map',
    type: 10,
    status: 4,
    disabled_by_user: true,
    default_locale: 'de',
    name: { de: 'Spaltenkarte' },
    summary: { de: 'Zusammenfassung', fr: 'Résumé' },
    description: { de: 'Beschreibung' },
    developer_comments: { de: 'Kommentar' },
    homepage: { de: 'https://home.example.com/' },
    support_url: { de: 'https://support.example.com/' },
    support_email: { de: 'help@example.com' },
    privacy_policy: { de: 'Datenschutz' },
    contributions_url: 'https://donate.example.com/columns',
    requires_payment: true,
    is_experimental: true,
    public_stats: false,
    icon_type: 'image/png',
    icon_hash: 'abcd1234',
    average_daily_users: 12345,
    weekly_downloads: 678,
    hotness: 0.5,
    average_rating: 4.25,
    bayesian_rating: 3.75,
    total_ratings: 42,
    text_ratings_count: 17,
    current_version_id: 8001,
    promoted_category: 3,
    target_locale: null,
    promoted_apps: [1, 61],
    tags: ['one', 'two words'],
    category_ids: [5, 9],
    compat_apps: [1],
    compat_min: [MIN_INT],
    compat_max: [MAX_INT],
    platforms: [1],
    colors: [{ h: 10, s: 20, l: 30, ratio: 0.5 }],
    last_updated: ms(1),
    created: ms(2),
    modified: ms(3),
  });
  b.versions.push({
    id: 8001,
    addon_id: 7001,
    version: '1.2.3',
    channel: 1,
    license_id: licenseId,
    release_notes: { de: 'Neu' },
    deleted: false,
    created: ms(4),
    reviewed: ms(5),
  });
  b.compat.push({
    id: 9001,
    version_id: 8001,
    application: 1,
    min: '60.0',
    max: '*',
    min_int: MIN_INT,
    max_int: MAX_INT,
  });
  b.files.push({
    id: 9101,
    version_id: 8001,
    platform: 7,
    status: 4,
    filename: 'column-map-1.2.3.xpi',
    hash: 'sha256:00ff',
    size: 5_000_000_123,
    is_webextension: false,
    is_restart_required: true,
    is_vendor_signed: true,
    is_signed: true,
    strict_compatibility: true,
    permissions: ['tabs', 'storage'],
    optional_permissions: ['<all_urls>'],
    host_permissions: ['*://example.com/*'],
    data_collection_permissions: ['locationInfo'],
    optional_data_collection_permissions: ['technicalAndInteraction'],
    created: ms(6),
  });
  b.previews.push({
    id: 9201,
    addon_id: 7001,
    position: 2,
    caption: { de: 'Bild' },
    image_size: [1280, 800],
    thumbnail_size: [533, 333],
    image_format: 'jpg',
    modified: ms(7),
  });
  b.authors.push({ id: 9301, addon_id: 7001, user_id: userId, role: 6, listed: false, position: 3 });
  return b;
}

/** The record a written row should read back as: the map's read columns, timestamps as Dates, keys as refs. */
function expectedRecord(table: Table<ColumnMap>, row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [key, c] of Object.entries(table.columns)) {
    if (!c.read) continue;
    const value = row[c.name];
    if (value === null) record[key] = null;
    else if (c.type.sql === 'timestamptz') record[key] = new Date(value as number);
    else if (c.type.decode && c.type.sql === 'int') record[key] = { id: value };
    else record[key] = value;
  }
  return record;
}

let t: TestApp;
let written: AddonBatch;
beforeAll(async () => {
  t = await startTestApp();
  const em = t.em().fork();
  const [licence] = await selectRows<{ id: number }>(em, 'select min(id) as id from licenses');
  const user = await t.createUser({ username: 'column-author' });
  written = batch(licence.id, user.id);
  await writeBatch(knexQuery(em.getKnex()), written);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('column maps', () => {
  const tables: [Table<ColumnMap>, string, string][] = [
    [ADDON_TABLE, ADDON_COLUMNS, 'a'],
    [VERSION_TABLE, VERSION_COLUMNS, 'v'],
    [COMPAT_TABLE, COMPAT_COLUMNS, 'c'],
    [FILE_TABLE, FILE_COLUMNS, 'f'],
    [PREVIEW_TABLE, PREVIEW_COLUMNS, 'p'],
  ];

  it('give the select lists: the read columns, in the seed writer’s order', () => {
    for (const [table, columns, alias] of tables) {
      expect(columns).toBe(selectList(table, alias));
      const written = writeColumns(table).map(([name]) => name);
      const read = Object.values(table.columns)
        .filter((c) => c.read)
        .map((c) => `${alias}.${c.name}`);
      expect(columns.split(', ')).toEqual(read);
      expect(read.map((r) => r.slice(alias.length + 1)).every((name) => written.includes(name))).toBe(true);
    }
    expect(ADDON_COLUMNS).toContain('a.contributions_url');
    // Only written: the search-only and lazy columns.
    expect(ADDON_COLUMNS).not.toContain('privacy_policy');
    expect(ADDON_COLUMNS).not.toContain('compat_min');
    expect(ADDON_COLUMNS).not.toContain('modified');
  });

  it('give the seed writer its tables and columns', () => {
    for (const [spec, table] of [
      [ADDONS, ADDON_TABLE],
      [VERSIONS, VERSION_TABLE],
      [COMPAT, COMPAT_TABLE],
      [FILES, FILE_TABLE],
      [PREVIEWS, PREVIEW_TABLE],
      [AUTHORS, AUTHOR_TABLE],
    ] as const) {
      expect(spec.table).toBe(table.table);
      // Files also carry `is_signed` (the signing domain's column; the seeder signs approved files).
      const extra = spec === FILES ? [['is_signed', 'boolean']] : [];
      expect(spec.columns).toEqual([...Object.values(table.columns).map((c) => [c.name, c.type.sql]), ...extra]);
    }
    expect(ADDONS.columns).toContainEqual(['contributions_url', 'text']);
    expect(ADDONS.columns).toContainEqual(['created', 'timestamptz']);
    expect(FILES.columns).toContainEqual(['size', 'bigint']);
  });

  it('round-trip: what the seed writer writes reads back through the select lists and mappers', async () => {
    const em = t.em().fork();
    const db = em.getPlatform();

    const [addon] = await selectRows<AddonRow>(em, `select ${ADDON_COLUMNS} from addons a where a.id = 7001`);
    expect(toAddonRecord(addon, db)).toEqual(expectedRecord(ADDON_TABLE, written.addons[0]));
    expect(toAddonRecord(addon, db).contributionsUrl).toBe('https://donate.example.com/columns');
    const [version] = await selectRows<VersionRow>(em, `select ${VERSION_COLUMNS} from versions v where v.id = 8001`);
    expect(toVersionRecord(version, db)).toEqual(expectedRecord(VERSION_TABLE, written.versions[0]));
    const [compat] = await selectRows<CompatRow>(em, `select ${COMPAT_COLUMNS} from version_compat c`);
    expect(toCompatRecord(compat, db)).toEqual(expectedRecord(COMPAT_TABLE, written.compat[0]));
    const [file] = await selectRows<FileRow>(em, `select ${FILE_COLUMNS} from files f where f.id = 9101`);
    // A bigint beyond 32 bits (node-postgres returns text) reads back as the number.
    expect(toFileRecord(file, db)).toEqual({ ...expectedRecord(FILE_TABLE, written.files[0]), size: 5_000_000_123 });
    const [preview] = await selectRows<PreviewRow>(em, `select ${PREVIEW_COLUMNS} from previews p where p.id = 9201`);
    expect(toPreviewRecord(preview, db)).toEqual(expectedRecord(PREVIEW_TABLE, written.previews[0]));
    // An author's record has the map's read columns and the joined account (`user_id` only written).
    const [author] = await selectRows<AuthorRow>(
      em,
      `select ${AUTHOR_COLUMNS} from addon_users au join users u on u.id = au.user_id where au.id = 9301`,
    );
    expect(AUTHOR_COLUMNS.startsWith(`${selectList(AUTHOR_TABLE, 'au')}, u.id as user_id,`)).toBe(true);
    expect(toAuthorRecord(author, db)).toEqual({
      ...expectedRecord(AUTHOR_TABLE, written.authors[0]),
      user: expect.objectContaining({ id: written.authors[0].user_id, username: 'column-author' }),
    });

    // The same rows as JSON (`row_to_json`, as the add-on loader reads neighbours) map the same.
    const [json] = await selectRows<{ v: VersionRow; f: FileRow }>(
      em,
      `select (select row_to_json(x) from (select ${VERSION_COLUMNS} from versions v where v.id = 8001) x) as v,
              (select row_to_json(x) from (select ${FILE_COLUMNS} from files f where f.id = 9101) x) as f`,
    );
    expect(toVersionRecord(json.v, db)).toEqual(toVersionRecord(version, db));
    expect(toFileRecord(json.f, db)).toEqual(toFileRecord(file, db));
  });

  it('agree with the entities (the migrations’ source) on every mapped field', async () => {
    const em = t.em().fork();
    const db = em.getPlatform();
    const pairs: [Record<string, unknown>, object][] = [
      [
        toAddonRecord(
          (await selectRows<AddonRow>(em, `select ${ADDON_COLUMNS} from addons a where a.id = 7001`))[0],
          db,
        ),
        await em.findOneOrFail(Addon, 7001),
      ],
      [
        toVersionRecord(
          (await selectRows<VersionRow>(em, `select ${VERSION_COLUMNS} from versions v where v.id = 8001`))[0],
          db,
        ),
        await em.findOneOrFail(Version, 8001),
      ],
      [
        toFileRecord((await selectRows<FileRow>(em, `select ${FILE_COLUMNS} from files f where f.id = 9101`))[0], db),
        await em.findOneOrFail(AddonFile, 9101),
      ],
    ];
    for (const [record, entity] of pairs) {
      const fields = entity as Record<string, unknown>;
      for (const [key, value] of Object.entries(record)) {
        const actual = fields[key];
        if (value !== null && typeof value === 'object' && 'id' in value && !Array.isArray(value)) {
          expect([key, (actual as { id: number }).id]).toEqual([key, value.id]);
        } else {
          expect([key, actual]).toEqual([key, value]);
        }
      }
    }
  });
});
