import { Arg, Args, ArgsType, Ctx, Field, Int, Query, Resolver } from 'type-graphql';
import { AddonSearchHitType, AddonSearchPageType, AddonObjectType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { SearchServices } from './services.js';
import { FEATURED_LIMIT } from './search.service.js';
import { AddonSearchInput, AddonSortField } from './search.types.js';
import { Requires, PUBLIC } from '../access/requirements.js';
import { Shared } from '../graphql/shared-answers.js';
import { searchListingTags } from './search.cache-tags.js';

@ArgsType()
class SearchArgs extends PageArgs {
  @Field(() => AddonSearchInput, { nullable: true })
  filters?: AddonSearchInput | null;

  @Field(() => [AddonSortField], { nullable: true, description: 'Default: RELEVANCE with q, else RECOMMENDED, USERS.' })
  sort?: AddonSortField[] | null;
}

/** What a page of search or autocomplete depends on besides the add-ons it shows (null: never shared). */
const listingTags = (autocomplete: boolean) => (args: Record<string, unknown>) =>
  searchListingTags(args.filters as AddonSearchInput | null, args.sort as string[] | null, autocomplete);

@Resolver()
export class SearchResolver {
  constructor(private readonly services: SearchServices) {}

  @Shared(listingTags(false))
  @Requires(PUBLIC)
  @Query(() => AddonSearchPageType, { description: 'Public add-ons matching the filters.' })
  searchAddons(@Args() { filters, sort, page, pageSize }: SearchArgs, @Ctx() ctx: RequestContext) {
    return this.services.search.search(ctx, filters ?? {}, sort, page, pageSize);
  }

  @Shared(listingTags(true))
  @Requires(PUBLIC)
  @Query(() => [AddonSearchHitType], { description: 'At most 10 public add-ons whose names match, for type-ahead.' })
  autocompleteAddons(
    @Ctx() ctx: RequestContext,
    @Arg('filters', () => AddonSearchInput, { nullable: true }) filters?: AddonSearchInput | null,
    @Arg('sort', () => [AddonSortField], { nullable: true }) sort?: AddonSortField[] | null,
  ) {
    return this.services.search.autocomplete(ctx, filters ?? {}, sort);
  }

  @Requires(PUBLIC)
  @Query(() => [AddonObjectType], { description: 'Featured add-ons in random order (filters.app is required).' })
  async featuredAddons(
    @Ctx() ctx: RequestContext,
    @Arg('filters', () => AddonSearchInput) filters: AddonSearchInput,
    @Arg('limit', () => Int, {
      defaultValue: FEATURED_LIMIT.default,
      description: `At most ${FEATURED_LIMIT.max} (larger values too); 0 means 1; negative values are BAD_REQUEST.`,
    })
    limit: number,
  ) {
    return (await this.services.search.featured(ctx, filters, limit)).map((hit) => hit.addon);
  }
}
