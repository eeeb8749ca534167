import { Arg, Ctx, Field, ObjectType, Query, Resolver, registerEnumType } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { PUBLIC, Requires } from '../access/requirements.js';
import { AddonObjectType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { DiscoveryServices } from './services.js';
import { FallbackReason, RecommendationOutcome } from './addon-recommendations.js';

registerEnumType(RecommendationOutcome, {
  name: 'RecommendationOutcome',
  description: 'Where recommended add-ons come from.',
  valuesConfig: {
    RECOMMENDED: { description: "The service's recommender: four public extensions related to the add-on." },
    RECOMMENDED_FALLBACK: {
      description: 'Recommendations could not be given: the curated list (see `fallbackReason`).',
    },
    CURATED: { description: 'Recommendations were not asked for: the curated list.' },
  },
});
registerEnumType(FallbackReason, {
  name: 'RecommendationFallbackReason',
  valuesConfig: {
    TIMEOUT: { description: 'Never given: the recommender is a query of this service, it does not time out apart.' },
    NO_RESULTS: { description: 'No public add-on has that id, or nothing related to it is public.' },
    INVALID_RESULTS: { description: 'Fewer than four related public extensions.' },
  },
});

@ObjectType('AddonRecommendations')
export class AddonRecommendationsType {
  @Field(() => RecommendationOutcome)
  outcome!: RecommendationOutcome;

  @Field(() => FallbackReason, { nullable: true, description: 'With `RECOMMENDED_FALLBACK`: why.' })
  fallbackReason!: FallbackReason | null;

  @Field(() => [AddonObjectType], { description: 'At most four public extensions, best first.' })
  addons!: unknown[];
}

/** Recommendations on an add-on's page (AddonRecommendationsService holds the rules). */
@Resolver()
export class AddonRecommendationsResolver {
  constructor(private readonly services: DiscoveryServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Query(() => AddonRecommendationsType, {
    description:
      'Other add-ons to suggest on the page of the add-on with this id (guid): with `recommended`, the ' +
      "service's recommender (collections and ratings shared with it, then its categories' most used " +
      'extensions), else, or when it has fewer than four, the curated list (discovery pane, then promoted ' +
      'as recommended).',
  })
  addonRecommendations(
    @Ctx() ctx: RequestContext,
    @Arg('guid', () => String, { nullable: true }) guid?: string | null,
    @Arg('recommended', { defaultValue: false }) recommended?: boolean,
  ) {
    return this.services.addonRecommendations.recommend(ctx, guid, recommended ?? false);
  }
}
