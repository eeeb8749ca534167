import { Field, Float, InputType, registerEnumType } from 'type-graphql';
import { AddonType, App, Platform, PromotedCategory } from '../catalogue/catalogue.enums.js';

export const AddonSortField = {
  CREATED: 'created',
  DOWNLOADS: 'downloads',
  HOTNESS: 'hotness',
  RATING: 'rating',
  RELEVANCE: 'relevance',
  UPDATED: 'updated',
  USERS: 'users',
  RECOMMENDED: 'recommended',
  RANDOM: 'random',
} as const;
export type AddonSortField = (typeof AddonSortField)[keyof typeof AddonSortField];

registerEnumType(AddonSortField, {
  name: 'AddonSort',
  description:
    'All descending. RECOMMENDED only before another sort; RANDOM only alone, without q, with featured or promoted; RELEVANCE needs q.',
});

@InputType({ description: 'Bounds of a number: each one optional, every one given must hold.' })
export class NumberRangeInput {
  @Field(() => Float, { nullable: true, description: 'Greater than.' })
  gt?: number | null;

  @Field(() => Float, { nullable: true, description: 'Greater than or equal to.' })
  gte?: number | null;

  @Field(() => Float, { nullable: true, description: 'Less than.' })
  lt?: number | null;

  @Field(() => Float, { nullable: true, description: 'Less than or equal to.' })
  lte?: number | null;
}

@InputType({ description: 'Bounds of an instant: each one optional, every one given must hold.' })
export class DateRangeInput {
  @Field(() => Date, { nullable: true, description: 'Later than.' })
  gt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'At or later than.' })
  gte?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Earlier than.' })
  lt?: Date | null;

  @Field(() => Date, { nullable: true, description: 'At or earlier than.' })
  lte?: Date | null;
}

@InputType({ description: 'Search filters; every field is optional and they combine with AND.' })
export class AddonSearchInput {
  @Field(() => String, { nullable: true, description: 'Query text, at most 100 characters.' })
  q?: string | null;

  @Field(() => [AddonType], { nullable: true, description: 'Any of these types.' })
  types?: AddonType[] | null;

  @Field(() => App, { nullable: true })
  app?: App | null;

  @Field(() => String, { nullable: true, description: 'Compatible with this application version (needs app).' })
  appVersion?: string | null;

  @Field(() => [Number], { nullable: true, description: 'Listed author user ids (any).' })
  authorIds?: number[] | null;

  @Field(() => [String], { nullable: true, description: 'Listed author usernames (any).' })
  authorUsernames?: string[] | null;

  @Field(() => String, { nullable: true, description: 'Category slug or id; used only with app and one type.' })
  category?: string | null;

  @Field(() => [String], { nullable: true, description: 'Ids or slugs to leave out.' })
  excludeAddons?: string[] | null;

  @Field(() => [String], { nullable: true, description: 'Any of these guids.' })
  guids?: string[] | null;

  @Field(() => Platform, { nullable: true })
  platform?: Platform | null;

  @Field(() => [PromotedCategory], { nullable: true, description: 'Any of these promoted categories.' })
  promoted?: PromotedCategory[] | null;

  @Field(() => [String], { nullable: true, description: 'All of these tags.' })
  tags?: string[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Only featured add-ons (for app, and featuredLocale, if given).',
  })
  featured?: boolean | null;

  @Field(() => String, { nullable: true })
  featuredLocale?: string | null;

  @Field(() => String, { nullable: true, description: 'Static themes close to this RGB hex colour.' })
  color?: string | null;

  @Field(() => NumberRangeInput, { nullable: true, description: 'Average daily users within these bounds.' })
  users?: NumberRangeInput | null;

  @Field(() => NumberRangeInput, { nullable: true, description: 'Average rating (0 to 5) within these bounds.' })
  ratings?: NumberRangeInput | null;

  @Field(() => DateRangeInput, { nullable: true, description: 'Created within these bounds.' })
  created?: DateRangeInput | null;

  @Field(() => DateRangeInput, {
    nullable: true,
    description: 'Last updated within these bounds (never updated: no match).',
  })
  updated?: DateRangeInput | null;
}
