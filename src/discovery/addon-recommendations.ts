import { addonById, addonByLowerGuid } from '../catalogue/catalogue.loaders.js';
import { AddonType, PromotedCategory } from '../catalogue/catalogue.enums.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import { isPublicAddon, publicAddonSql } from '../catalogue/public.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { lengthProblem } from '../core/text-limits.js';
import { selectRows } from '../db/rows.js';
import { rankedExtensions } from './recommendations.js';
import { DISCOVERY_TEXT_LIMITS } from './text-limits.js';

/** How many add-ons an answer recommends (the original asked its recommender for four). */
export const RECOMMENDATIONS_COUNT = 4;

/** Where the answer's add-ons come from (the original's `outcome`). */
export const RecommendationOutcome = {
  /** The recommender's: four public extensions related to the add-on. */
  RECOMMENDED: 'recommended',
  /** Recommendations were asked for but could not be given: the curated list, `fallbackReason` says why. */
  RECOMMENDED_FALLBACK: 'recommended_fallback',
  /** Recommendations were not asked for: the curated list. */
  CURATED: 'curated',
} as const;
export type RecommendationOutcome = (typeof RecommendationOutcome)[keyof typeof RecommendationOutcome];

/** Why recommendations fell back to the curated list (the original's `fallback_reason`). */
export const FallbackReason = {
  /** The original's recommender did not answer in time. This service's recommender is a query of
   * its own database, which either answers or fails the request: never given here. */
  TIMEOUT: 'timeout',
  /** Nothing to recommend: an id of no public add-on, or no related public extension. */
  NO_RESULTS: 'no_results',
  /** Fewer than four related public extensions (the original falls back unless all four are valid). */
  INVALID_RESULTS: 'invalid_results',
} as const;
export type FallbackReason = (typeof FallbackReason)[keyof typeof FallbackReason];

export interface AddonRecommendations {
  outcome: RecommendationOutcome;
  fallbackReason: FallbackReason | null;
  addons: AddonRecord[];
}

/**
 * "Other add-ons you might like" on an add-on's page (the original's recommendations, which asked
 * an outside recommender): with `recommended`, the service's own recommender (recommendations.ts:
 * collections and 4+ ratings shared with the add-on, then its categories' most used extensions),
 * the best four public extensions; when it has no four, and without `recommended`, the curated
 * list instead: the discovery pane's public extensions in editorial order, then the extensions
 * promoted as recommended, most used first. The add-on itself is never among them.
 */
export class AddonRecommendationsService {
  async recommend(ctx: RequestContext, guid: string | null | undefined, recommended: boolean) {
    const id = guid?.trim() ?? '';
    if (lengthProblem(id, DISCOVERY_TEXT_LIMITS.replacementGuid)) throw errors.badRequest('Invalid "guid" parameter.');
    const found = id ? await ctx.loaders.get(addonByLowerGuid).load(id.toLowerCase()) : null;
    const seed = found && isPublicAddon(found) ? found : null;
    if (!recommended) return this.curated(ctx, seed, RecommendationOutcome.CURATED, null);
    const ids = seed ? await rankedExtensions(ctx, [seed.id], RECOMMENDATIONS_COUNT) : [];
    if (!ids.length)
      return this.curated(ctx, seed, RecommendationOutcome.RECOMMENDED_FALLBACK, FallbackReason.NO_RESULTS);
    const addons = await this.publicExtensions(ctx, ids);
    if (addons.length < RECOMMENDATIONS_COUNT) {
      return this.curated(ctx, seed, RecommendationOutcome.RECOMMENDED_FALLBACK, FallbackReason.INVALID_RESULTS);
    }
    return { outcome: RecommendationOutcome.RECOMMENDED, fallbackReason: null, addons };
  }

  private async curated(
    ctx: RequestContext,
    seed: AddonRecord | null,
    outcome: RecommendationOutcome,
    fallbackReason: FallbackReason | null,
  ): Promise<AddonRecommendations> {
    const rows = await selectRows<{ id: number }>(
      ctx.em,
      `select id from (
         (select a.id, 0 as tier, d.position as rank
            from discovery_items d join addons a on a.id = d.addon_id
           where d.position > 0 and ${publicAddonSql('a')} and a.type = ? and a.id <> ?
           order by d.position, d.id limit ?)
         union all
         (select a.id, 1, row_number() over (order by a.average_daily_users desc, a.id)
            from addons a
           where ${publicAddonSql('a')} and a.type = ? and a.promoted_category = ? and a.id <> ?
           order by a.average_daily_users desc, a.id limit ?)
       ) c
       group by id order by min(tier), min(rank) limit ?`,
      [
        AddonType.EXTENSION,
        seed?.id ?? 0,
        RECOMMENDATIONS_COUNT,
        AddonType.EXTENSION,
        PromotedCategory.RECOMMENDED,
        seed?.id ?? 0,
        RECOMMENDATIONS_COUNT,
        RECOMMENDATIONS_COUNT,
      ],
    );
    return {
      outcome,
      fallbackReason,
      addons: await this.publicExtensions(
        ctx,
        rows.map((row) => row.id),
      ),
    };
  }

  /** The records of `ids`, in that order, that are (still) public extensions. */
  private async publicExtensions(ctx: RequestContext, ids: number[]): Promise<AddonRecord[]> {
    const loaded = await ctx.loaders.get(addonById).loadMany(ids);
    return loaded.filter(
      (a): a is AddonRecord => !!a && !(a instanceof Error) && isPublicAddon(a) && a.type === AddonType.EXTENSION,
    );
  }
}
