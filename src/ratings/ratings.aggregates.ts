import type { EntityManager } from '@mikro-orm/postgresql';
import { AddonStatus } from '../catalogue/catalogue.enums.js';
import { advisoryLock } from '../db/advisory-locks.js';
import { selectRows } from '../db/rows.js';

/** The ratings an add-on's aggregates count: each user's latest live rating, replies excluded. */
const COUNTED = 'reply_to_id is null and not deleted and is_latest';

/** The add-on columns the ratings keep (see Addon: average_rating, bayesian_rating, …). */
export interface AddonRatingColumns {
  count: number;
  average: number;
  textCount: number;
  bayesian: number;
}

/**
 * The bayesian prior: the mean number of ratings (`votes`) and the mean average rating (`mean`) of
 * the valid add-ons (approved or awaiting review, not disabled by their developer).
 */
interface Prior {
  votes: number;
  mean: number;
  at: number;
}

/** The original kept the prior for 60 hours: it moves slowly and costs a scan of every add-on. */
export const PRIOR_TTL_MS = 60 * 60 * 60 * 1000;

/**
 * The denormalised rating data, recomputed inside the transaction of every rating write. Writers
 * of one add-on's ratings first take its lock (`lockAddon`), so they run one after the other and
 * each recomputation sees every committed rating: `is_latest`, `previous_count`, the add-on's
 * count, average and text count always equal a recount of the ratings table.
 */
export class RatingAggregates {
  private prior: Prior | null = null;

  constructor(private readonly priorTtlMs = PRIOR_TTL_MS) {}

  /**
   * Takes the add-on's ratings lock until the transaction ends; returns its rating columns as the
   * previous writer committed them. An advisory lock rather than the row's: a rating write then
   * holds the `addons` row only from its last statement to its commit. Catalogue writers lock the
   * cache-generation row (by trigger) before add-on rows; holding an add-on row for the whole
   * write would widen the window for a deadlock with them. Taken before the write touches a row
   * (the lock order: src/db/advisory-locks.ts).
   */
  async lockAddon(tx: EntityManager, addonId: number): Promise<AddonRatingColumns> {
    await advisoryLock(tx, 'addon-ratings', addonId);
    const [row] = await selectRows<{ count: number; average: number; text_count: number; bayesian: number }>(
      tx,
      `select total_ratings as count, average_rating as average, text_ratings_count as text_count,
              bayesian_rating as bayesian
         from addons where id = ?`,
      [addonId],
    );
    return { count: row.count, average: row.average, textCount: row.text_count, bayesian: row.bayesian };
  }

  /**
   * Before a user's ratings disappear without a rating write (their account removed with its
   * data), first thing in the transaction: takes the user's ratings lock, then the ratings locks
   * of every add-on they rated (the lock order, src/db/advisory-locks.ts), so that no rating write
   * of those add-ons holds a row the removal needs while it waits for one of these locks. Returns
   * the add-ons (to recount once the ratings are gone).
   */
  async lockUser(tx: EntityManager, userId: number): Promise<number[]> {
    await advisoryLock(tx, 'user-ratings', userId);
    const rated = await selectRows<{ addon_id: number }>(
      tx,
      'select distinct addon_id from ratings where user_id = ?',
      [userId],
    );
    const addonIds = rated.map((r) => r.addon_id);
    await advisoryLock(tx, 'addon-ratings', addonIds);
    return addonIds;
  }

  /** `previous_count` (by creation order) and `is_latest` of one user's live ratings of the add-on. */
  async refreshUser(tx: EntityManager, addonId: number, userId: number): Promise<void> {
    await tx.execute(
      `update ratings r set previous_count = x.previous_count, is_latest = x.is_latest
         from (select id,
                      (row_number() over (order by created, id) - 1)::int as previous_count,
                      row_number() over (order by created desc, id desc) = 1 as is_latest
                 from ratings
                where addon_id = ? and user_id = ? and reply_to_id is null and not deleted) x
        where r.id = x.id and (r.previous_count, r.is_latest) is distinct from (x.previous_count, x.is_latest)`,
      [addonId, userId],
    );
  }

  /**
   * Recounts the add-on's ratings into its columns (`current`: what `lockAddon` returned). Writes
   * only when something changed: any write to `addons` renews the catalogue cache generation.
   * Returns whether it wrote.
   */
  async refreshAddon(tx: EntityManager, addonId: number, current: AddonRatingColumns): Promise<boolean> {
    const [counted] = await selectRows<{ count: number; average: number; text_count: number }>(
      tx,
      `select count(*)::int as count, coalesce(avg(score), 0)::float8 as average, count(body)::int as text_count
         from ratings where addon_id = ? and ${COUNTED}`,
      [addonId],
    );
    const prior = await this.currentPrior(tx);
    const next: AddonRatingColumns = {
      count: counted.count,
      // Stored as `real`: compared (and written) at that precision.
      average: Math.fround(counted.average),
      textCount: counted.text_count,
      bayesian: current.bayesian,
    };
    if (counted.count === 0) next.bayesian = 0;
    else if (prior) {
      next.bayesian = Math.fround(
        (prior.votes * prior.mean + counted.count * counted.average) / (prior.votes + counted.count),
      );
    }
    const unchanged =
      next.count === current.count &&
      next.average === Math.fround(current.average) &&
      next.textCount === current.textCount &&
      next.bayesian === Math.fround(current.bayesian);
    if (unchanged) return false;
    await tx.execute(
      `update addons set total_ratings = ?, average_rating = ?, text_ratings_count = ?, bayesian_rating = ? where id = ?`,
      [next.count, next.average, next.textCount, next.bayesian, addonId],
    );
    return true;
  }

  /** Live ratings of the add-on per score, as `[count of 1, …, count of 5]`: the ones the average counts. */
  async grouped(em: EntityManager, addonId: number): Promise<number[]> {
    const rows = await selectRows<{ score: number; count: number }>(
      em,
      `select score, count(*)::int as count from ratings where addon_id = ? and ${COUNTED} group by score`,
      [addonId],
    );
    return [1, 2, 3, 4, 5].map((score) => rows.find((r) => r.score === score)?.count ?? 0);
  }

  /** Null while there is no valid add-on (the bayesian rating is then left as it is, as in the original). */
  private async currentPrior(tx: EntityManager): Promise<Prior | null> {
    if (this.prior && Date.now() - this.prior.at < this.priorTtlMs) return this.prior;
    const [row] = await selectRows<{ votes: number | null; mean: number | null }>(
      tx,
      `select avg(total_ratings)::float8 as votes, avg(average_rating)::float8 as mean
         from addons where status in (?, ?) and not disabled_by_user`,
      [AddonStatus.NOMINATED, AddonStatus.PUBLIC],
    );
    if (row.votes === null || row.mean === null) return null;
    this.prior = { votes: row.votes, mean: row.mean, at: Date.now() };
    return this.prior;
  }
}
