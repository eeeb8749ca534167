import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageOf } from '../graphql/pagination.js';
import { TranslationsScalar } from '../graphql/scalars.js';
import type { Translations } from '../core/i18n/translations.js';
import { AddonStatus, AddonType, App, Channel, Platform, PromotedCategory } from './catalogue.enums.js';
import { Shared } from '../graphql/shared-answers.js';

registerEnumType(AddonType, { name: 'AddonType' });
registerEnumType(AddonStatus, { name: 'AddonStatus' });
registerEnumType(App, { name: 'Application', description: 'Applications add-ons are made for.' });
registerEnumType(Channel, { name: 'Channel' });
registerEnumType(Platform, { name: 'Platform' });
registerEnumType(PromotedCategory, { name: 'PromotedCategory' });

@Shared()
@ObjectType('AddonRatings')
export class AddonRatingsType {
  @Field(() => Float)
  average!: number;

  @Field(() => Float)
  bayesianAverage!: number;

  @Field(() => Int)
  count!: number;

  @Field(() => Int, { description: 'Ratings with a review text.' })
  textCount!: number;
}

@Shared()
@ObjectType('AddonPromotion')
export class AddonPromotionType {
  @Field(() => PromotedCategory)
  category!: number;

  @Field(() => [App])
  apps!: number[];
}

@Shared()
@ObjectType('Category')
export class CategoryType {
  @Field(() => Int)
  id!: number;

  @Field()
  slug!: string;

  @Field(() => App)
  application!: number;

  @Field(() => AddonType)
  type!: number;

  @Field(() => TranslationsScalar)
  name!: Translations;

  @Field()
  misc!: boolean;

  @Field(() => Int)
  weight!: number;
}

/** `user` and `userSummary` are resolved by AddonAuthorResolver (catalogue.summary.ts). */
@Shared()
@ObjectType('AddonAuthor')
export class AddonAuthorType {
  @Field(() => Int)
  position!: number;
}

@Shared()
@ObjectType('Preview')
export class PreviewType {
  @Field(() => Int)
  id!: number;

  @Field(() => TranslationsScalar, { nullable: true })
  caption!: Translations | null;

  @Field(() => Int, { description: 'Order among the add-on previews (lowest first).' })
  position!: number;

  @Field(() => [Int], { description: '[width, height] of the stored image (within 2400×1800)' })
  imageSize!: number[];

  @Field(() => [Int], { description: '[width, height] of the stored thumbnail (within 640×480)' })
  thumbnailSize!: number[];

  @Field()
  imageUrl!: string;

  @Field()
  thumbnailUrl!: string;
}

@Shared()
@ObjectType('License')
export class LicenseType {
  @Field(() => Int)
  id!: number;

  @Field(() => TranslationsScalar, { nullable: true })
  name!: Translations | null;

  @Field(() => String, { nullable: true })
  url!: string | null;

  @Field({ description: 'A developer-written licence rather than a built-in one.' })
  isCustom!: boolean;
}

@Shared()
@ObjectType('Compatibility')
export class CompatibilityType {
  @Field(() => App)
  application!: number;

  @Field()
  min!: string;

  @Field()
  max!: string;
}

@Shared()
@ObjectType('File')
export class FileType {
  @Field(() => Int)
  id!: number;

  @Field()
  created!: Date;

  @Field({ description: '`sha256:<hex>` of the file served (the signed file once signed).' })
  hash!: string;

  @Field(() => Platform)
  platform!: number;

  @Field(() => Float, { description: 'Bytes.' })
  size!: number;

  @Field(() => Int, { description: '1 awaiting review, 4 approved, 5 disabled.' })
  status!: number;

  @Field()
  isWebextension!: boolean;

  @Field()
  isRestartRequired!: boolean;

  @Field()
  isVendorSigned!: boolean;

  @Field(() => [String])
  permissions!: string[];

  @Field(() => [String])
  optionalPermissions!: string[];

  @Field(() => [String], {
    description: 'Host permissions of a manifest version 3 (earlier manifests list them among `permissions`).',
  })
  hostPermissions!: string[];

  @Field(() => [String], { description: 'The data it says it collects (`data_collection_permissions.required`).' })
  dataCollectionPermissions!: string[];

  @Field(() => [String], { description: 'The data it may ask to collect (`data_collection_permissions.optional`).' })
  optionalDataCollectionPermissions!: string[];
}

@Shared()
@ObjectType('Version')
export class VersionType {
  @Field(() => Int)
  id!: number;

  @Field()
  version!: string;

  @Field(() => Channel)
  channel!: number;

  @Field(() => TranslationsScalar, { nullable: true })
  releaseNotes!: Translations | null;

  @Field()
  created!: Date;

  @Field(() => Date, { nullable: true })
  reviewed!: Date | null;

  @Field()
  deleted!: boolean;
}

@Shared()
@ObjectType('Addon')
export class AddonObjectType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { nullable: true })
  guid!: string | null;

  @Field()
  slug!: string;

  @Field(() => AddonType)
  type!: number;

  @Field(() => AddonStatus)
  status!: number;

  @Field()
  defaultLocale!: string;

  @Field(() => TranslationsScalar, { nullable: true })
  name!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  summary!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  description!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  developerComments!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  homepage!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  supportUrl!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  supportEmail!: Translations | null;

  @Field(() => String, { nullable: true })
  contributionsUrl!: string | null;

  @Field()
  requiresPayment!: boolean;

  @Field()
  isExperimental!: boolean;

  @Field(() => String, { nullable: true, description: 'The locale a language pack or dictionary is for.' })
  targetLocale!: string | null;

  @Field()
  publicStats!: boolean;

  @Field(() => Int)
  averageDailyUsers!: number;

  @Field(() => Int)
  weeklyDownloads!: number;

  @Field(() => Float)
  hotness!: number;

  @Field(() => [String])
  tags!: string[];

  @Field()
  created!: Date;

  @Field(() => Date, { nullable: true })
  lastUpdated!: Date | null;
}

@Shared()
@ObjectType('AddonSearchHit')
export class AddonSearchHitType {
  @Field(() => AddonObjectType)
  addon!: object;

  @Field(() => Float, { nullable: true, description: 'Relevance to the query (when sorted by relevance).' })
  score!: number | null;
}

@Shared()
@ObjectType('AddonSearchPage')
export class AddonSearchPageType extends PageOf(AddonSearchHitType) {}

@Shared()
@ObjectType('VersionPage')
export class VersionPageType extends PageOf(VersionType) {}
