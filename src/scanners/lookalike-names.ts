import { createHash } from 'node:crypto';
import type { EventArgs, EventSubscriber } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Addon } from '../catalogue/addon.entity.js';
import { publicAddonSql } from '../catalogue/public.js';
import type { Translations } from '../core/i18n/translations.js';
import { selectRows } from '../db/rows.js';
import { textArray } from '../db/sql.js';
import { CONFUSABLE_PAIRS, CONFUSABLES, looksAlike, MIN_FUZZY_LENGTH, normaliseName } from './lookalike.js';
import { MAX_KEY_LENGTH, MAX_OWN_NAMES, nameSkeletons, probeKeys, storedKeys } from './lookalike-keys.js';

/** At most this many candidate add-ons (sharing a key, in id order) are read and checked per scan. */
export const MAX_CANDIDATES = 1000;
/** At most this many look-alikes are reported. */
export const MAX_LOOKALIKES = 20;
/** Stale rows keyed per statement when catching up (after the migration, or a trademark change). */
export const CATCH_UP_BATCH = 1000;
/** The site_settings row holding the normalisation the stored keys were computed with. */
const FINGERPRINT_KEY = 'scanners.lookalike-keys';

export interface LookalikeHit {
  addonId: number;
  /** The public add-on's name (as stored, first locale that looks alike). */
  name: string;
}

/**
 * The stored look-alike keys of add-on names (`addons.lookalike_keys`, lookalike-keys.ts), kept with
 * the name: an ORM hook computes them in the statement that writes a name (every write of an
 * add-on through the ORM: submissions, listing edits); any other write that changes a name without
 * them (raw SQL, the seed command) has them cleared by a trigger (the LookalikeNames migration),
 * and cleared keys are computed again before the next look-up (`catchUp`). Keys depend on the
 * configured trademarks: when the normalisation's fingerprint changes, every add-on is keyed again.
 */
export class LookalikeNames implements EventSubscriber<Addon> {
  readonly fingerprint: string;

  constructor(private readonly trademarks: readonly string[]) {
    this.fingerprint = createHash('sha256')
      .update(
        JSON.stringify({
          keys: 1,
          trademarks,
          CONFUSABLES,
          CONFUSABLE_PAIRS,
          MIN_FUZZY_LENGTH,
          MAX_KEY_LENGTH,
        }),
      )
      .digest('base64url');
  }

  getSubscribedEntities() {
    return [Addon];
  }

  beforeCreate(args: EventArgs<Addon>): void {
    args.entity.lookalikeKeys = this.keysOf(args.entity.name);
  }

  beforeUpdate(args: EventArgs<Addon>): void {
    if (args.changeSet && 'name' in args.changeSet.payload) args.entity.lookalikeKeys = this.keysOf(args.entity.name);
  }

  keysOf(name: Translations | null | undefined): string[] {
    return storedKeys(nameSkeletons(name, this.trademarks));
  }

  /**
   * Public add-ons other than `addon` whose name looks like one of its names (at most
   * MAX_OWN_NAMES of them), in id order: candidates through the index, checked with `looksAlike`.
   */
  async find(
    em: EntityManager,
    addon: { id: number; name: Translations | null; defaultLocale: string },
  ): Promise<LookalikeHit[]> {
    const own = nameSkeletons(addon.name, this.trademarks, addon.defaultLocale).slice(0, MAX_OWN_NAMES);
    if (!own.length) return [];
    await this.catchUp(em);
    const probes = [...new Set(own.flatMap(probeKeys))];
    const rows = await selectRows<{ id: number; name: Translations | null }>(
      em,
      `select a.id, a.name from addons a where ${publicAddonSql('a')} and a.lookalike_keys && ?::text[]
        and a.id <> ? order by a.id limit ${MAX_CANDIDATES}`,
      [textArray(probes), addon.id],
    );
    const hits: LookalikeHit[] = [];
    for (const row of rows) {
      const names = Object.values(row.name ?? {});
      const hit = names.find((name) =>
        own.some((mine) => looksAlike(mine, normaliseName(String(name), this.trademarks))),
      );
      if (hit !== undefined) hits.push({ addonId: row.id, name: hit });
      if (hits.length >= MAX_LOOKALIKES) break;
    }
    return hits;
  }

  /**
   * After a backfill, the planner's statistics of the keys' index: a GIN index's are recorded by
   * VACUUM alone, and without them the planner prefers reading every public add-on (PGlite has no
   * autovacuum; measured at 3,000 add-ons: 25 ms against 0.1 ms). Once recorded, the planner
   * scales them with the index's size, so one VACUUM after the first keying suffices.
   */
  private async settled(em: EntityManager, keyed: number, reset: boolean): Promise<number> {
    // VACUUM runs outside a transaction only (the scan's look-up runs in none).
    if ((reset || keyed >= CATCH_UP_BATCH) && !em.isInTransaction()) await em.execute('vacuum (analyze) addons');
    return keyed;
  }

  /**
   * Keys the add-ons whose keys are missing (null: written without them, or cleared), in batches
   * of CATCH_UP_BATCH by id; first clears every add-on's keys if they were computed with another
   * normalisation. Nothing to do (the usual case) costs two indexed reads.
   */
  async catchUp(em: EntityManager): Promise<number> {
    const [stored] = await selectRows<{ value: unknown }>(em, 'select value from site_settings where key = ?', [
      FINGERPRINT_KEY,
    ]);
    let reset = false;
    if (stored?.value !== this.fingerprint) {
      await em.transactional(async (tx) => {
        const changed = await selectRows(
          tx,
          `insert into site_settings (key, value) values (?, ?::jsonb) on conflict (key) do update
            set value = excluded.value, modified = now() where site_settings.value is distinct from excluded.value
            returning key`,
          [FINGERPRINT_KEY, JSON.stringify(this.fingerprint)],
        );
        reset = changed.length > 0;
        if (reset) await tx.execute('update addons set lookalike_keys = null where lookalike_keys is not null');
      });
    }
    let keyed = 0;
    for (let after = 0; ;) {
      const rows = await selectRows<{ id: number; name: Translations | null }>(
        em,
        `select id, name from addons where lookalike_keys is null and id > ? order by id limit ${CATCH_UP_BATCH}`,
        [after],
      );
      if (!rows.length) return this.settled(em, keyed, reset);
      const keys = rows.map((row) => ({ id: row.id, name: row.name, keys: this.keysOf(row.name) }));
      // Only rows still holding the name the keys were computed from (a concurrent rename keys its own).
      await em.execute(
        `update addons a set lookalike_keys = u.keys
          from jsonb_to_recordset(?::jsonb) as u(id int, name jsonb, keys text[])
          where a.id = u.id and a.lookalike_keys is null and a.name is not distinct from u.name`,
        [JSON.stringify(keys)],
      );
      keyed += rows.length;
      if (rows.length < CATCH_UP_BATCH) return this.settled(em, keyed, reset);
      after = rows[rows.length - 1]!.id;
    }
  }
}
