import type { AddonRow } from './model.js';
import type { Rng } from './prng.js';

export type Popularity = Pick<
  AddonRow,
  | 'average_daily_users'
  | 'weekly_downloads'
  | 'hotness'
  | 'average_rating'
  | 'bayesian_rating'
  | 'total_ratings'
  | 'text_ratings_count'
>;

/** Largest ADU drawn (the biggest real add-ons have about ten million users). */
const MAX_USERS = 20_000_000;
/** Pareto exponent of daily users: median 1, p99 ~300, p99.9 ~5,000, ~42% zero (as in the notes). */
const ALPHA = 0.8;
/** Bayesian rating prior: `PRIOR_VOTES` votes at `PRIOR_MEAN`. */
const PRIOR_VOTES = 5;
const PRIOR_MEAN = 3.8;

/** Long-tailed usage and ratings, consistent with each other. */
export function popularity(rng: Rng, unlisted: boolean): Popularity {
  const adu = unlisted ? 0 : Math.min(MAX_USERS, Math.floor(Math.pow(rng.positive(), -1 / ALPHA)) - 1);
  const downloads = Math.floor(adu * Math.exp(rng.normal() * 0.8 - 1.5)) + (rng.chance(0.3) ? rng.int(0, 3) : 0);
  const r = rng.next();
  const hotness = r < 0.75 ? 0 : r < 0.93 ? rng.uniform(0, 1.5) : rng.uniform(-0.8, 0);
  let total = Math.floor(Math.pow(adu, 0.6) * Math.exp(rng.normal() * 0.7) * 0.5);
  if (adu === 0 && !unlisted && rng.chance(0.05)) total = rng.int(1, 3);
  if (total === 0) {
    return {
      average_daily_users: adu,
      weekly_downloads: downloads,
      hotness: round(hotness),
      average_rating: 0,
      bayesian_rating: 0,
      total_ratings: 0,
      text_ratings_count: 0,
    };
  }
  // Few ratings spread widely; many converge on the add-on's "true" quality.
  const quality = Math.min(5, Math.max(1, 4.1 + rng.normal() * 0.6));
  const average = Math.min(5, Math.max(1, quality + (rng.normal() * 1.2) / Math.sqrt(total)));
  return {
    average_daily_users: adu,
    weekly_downloads: downloads,
    hotness: round(hotness),
    average_rating: round(average),
    bayesian_rating: round((PRIOR_VOTES * PRIOR_MEAN + total * average) / (PRIOR_VOTES + total)),
    total_ratings: total,
    text_ratings_count: Math.floor(total * rng.uniform(0.15, 0.6)),
  };
}

/** Four decimals: exact in the `real` columns' text form, so database rows compare cleanly. */
const round = (x: number) => Math.round(x * 10_000) / 10_000;
