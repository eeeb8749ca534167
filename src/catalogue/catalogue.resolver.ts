import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import { TranslationsScalar } from '../graphql/scalars.js';
import type { CatalogueServices } from './services.js';
import type { AddonRecord } from './catalogue.records.js';
import { AddonStatus, App } from './catalogue.enums.js';
import { isDisabledAddon, isNoindexedAddon } from './public.js';
import {
  addonFlagsById,
  addonPoliciesById,
  authorsByAddonId,
  featuredAppsByAddonId,
  previewsByAddonId,
} from './catalogue.loaders.js';
import {
  AddonAuthorType,
  AddonObjectType,
  AddonPromotionType,
  AddonRatingsType,
  CategoryType,
  PreviewType,
  VersionPageType,
  VersionType,
} from './catalogue.types.js';
import { AddonAuthorDetailType } from './listing.types.js';
import { catalogueUrls } from './catalogue.urls.js';
import { IconSizeArg, addonIconUrl } from './catalogue.summary.js';
import { ADDONS_BY_ID_MAX } from './catalogue.service.js';
import { Requires, PUBLIC, objectRule } from '../access/requirements.js';
import { canSeeAddon } from './addon-access.js';
import { Shared } from '../graphql/shared-answers.js';

@ArgsType()
class VersionListArgs extends PageArgs {
  @Field({ description: 'Add-on id, slug or guid.' })
  addon!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'all_without_unlisted (listed reviewers, authors) | all_with_unlisted (unlisted reviewers, authors) | ' +
      'all_with_deleted (Addons:ViewDeleted). Absent or empty: listed versions with an approved file. ' +
      'Other values are BAD_PARAMETER.',
  })
  filter?: string | null;
}

@Resolver(() => AddonObjectType)
export class CatalogueResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Requires(objectRule(canSeeAddon))
  @Shared()
  @Query(() => AddonObjectType, {
    description: 'An add-on by id, slug or guid.',
  })
  addon(@Arg('id', { description: 'Id, slug or guid.' }) id: string, @Ctx() ctx: RequestContext) {
    return this.services.catalogue.getAddon(ctx, id);
  }

  @Requires(objectRule(canSeeAddon))
  @Shared()
  @Query(() => [AddonObjectType], {
    nullable: 'items',
    description: `Add-ons by id, in the order asked, each as \`addon\` shows it (null where it would refuse). At most ${ADDONS_BY_ID_MAX} ids (more are BAD_REQUEST).`,
  })
  addons(@Arg('ids', () => [Int]) ids: number[], @Ctx() ctx: RequestContext) {
    return this.services.catalogue.visibleAddons(ctx, ids);
  }

  /** API keys too: the v5 submission API follows a submitted version with them (web-ext). */
  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(objectRule(canSeeAddon))
  @Shared()
  @Query(() => VersionPageType, { description: 'Versions of an add-on, newest first.' })
  addonVersions(@Args() { addon, filter, page, pageSize }: VersionListArgs, @Ctx() ctx: RequestContext) {
    return this.services.catalogue.listVersions(ctx, addon, filter, page, pageSize);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(objectRule(canSeeAddon))
  @Shared()
  @Query(() => VersionType)
  addonVersion(
    @Arg('addon', { description: 'Add-on id, slug or guid.' }) addon: string,
    @Arg('id', () => Int, { nullable: true }) id: number | null,
    @Ctx() ctx: RequestContext,
    @Arg('number', () => String, { nullable: true, description: 'The version number (`2.2`) instead of `id`.' })
    number?: string | null,
  ) {
    return this.services.catalogue.getVersion(ctx, addon, id, number ?? null);
  }

  @Requires(PUBLIC)
  @Shared()
  @Query(() => [CategoryType])
  categories(@Ctx() ctx: RequestContext) {
    return this.services.categories.all(ctx.em);
  }

  @FieldResolver(() => Boolean, { description: 'Disabled by its developer or by the vendor.' })
  isDisabled(@Root() addon: AddonRecord) {
    return isDisabledAddon(addon);
  }

  @FieldResolver(() => Boolean, {
    description: 'Its page asks search engines not to index it: not promoted, and (almost) no users yet.',
  })
  isNoindexed(@Root() addon: AddonRecord) {
    return isNoindexedAddon(addon);
  }

  @FieldResolver(() => Boolean, { description: 'Hidden by its developer (`setAddonDisabledByDeveloper`).' })
  isDisabledByDeveloper(@Root() addon: AddonRecord) {
    return addon.disabledByUser;
  }

  @FieldResolver(() => Boolean, {
    description: 'Disabled by the vendor (status DISABLED, `setAddonDisabledByVendor`).',
  })
  isDisabledByVendor(@Root() addon: AddonRecord) {
    return addon.status === AddonStatus.DISABLED;
  }

  @FieldResolver(() => Boolean)
  async hasEula(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.get(addonFlagsById).load(addon.id)).hasEula;
  }

  @FieldResolver(() => Boolean)
  async hasPrivacyPolicy(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.get(addonFlagsById).load(addon.id)).hasPrivacyPolicy;
  }

  @FieldResolver(() => TranslationsScalar, {
    nullable: true,
    description: 'The end-user licence agreement users accept before installing (null: none).',
  })
  async eula(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.get(addonPoliciesById).load(addon.id)).eula;
  }

  @FieldResolver(() => TranslationsScalar, { nullable: true, description: 'The privacy policy (null: none).' })
  async privacyPolicy(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.get(addonPoliciesById).load(addon.id)).privacyPolicy;
  }

  @FieldResolver(() => AddonRatingsType)
  ratings(@Root() addon: AddonRecord): AddonRatingsType {
    return {
      average: addon.averageRating,
      bayesianAverage: addon.bayesianRating,
      count: addon.totalRatings,
      textCount: addon.textRatingsCount,
    };
  }

  @FieldResolver(() => AddonPromotionType, { nullable: true })
  promoted(@Root() addon: AddonRecord): AddonPromotionType | null {
    return addon.promotedCategory === null ? null : { category: addon.promotedCategory, apps: addon.promotedApps };
  }

  @FieldResolver(() => [CategoryType], { name: 'categories' })
  categoriesOf(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return this.services.categories.byIds(ctx.em, addon.categoryIds);
  }

  @FieldResolver(() => [AddonAuthorType], { description: 'Listed authors, in order.' })
  async authors(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    const authors = await ctx.loaders.get(authorsByAddonId).load(addon.id);
    return authors.filter((a) => a.listed);
  }

  @FieldResolver(() => [AddonAuthorDetailType], {
    description: 'Every author, listed or not, with role and address: for the add-on’s authors (and Addons:Edit) only.',
  })
  authorDetails(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return this.services.listing.authorDetails(ctx, addon.id);
  }

  @FieldResolver(() => [PreviewType])
  previews(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(previewsByAddonId).load(addon.id);
  }

  @FieldResolver(() => VersionType, {
    nullable: true,
    description:
      'For language packs, `app` + `appVersion` pick the latest version compatible with that application version ' +
      '(an `appVersion` that is not a version is BAD_REQUEST).',
  })
  currentVersion(
    @Root() addon: AddonRecord,
    @Ctx() ctx: RequestContext,
    @Arg('app', () => App, { nullable: true }) app?: App,
    @Arg('appVersion', () => String, { nullable: true }) appVersion?: string,
  ) {
    return this.services.catalogue.currentVersion(ctx, addon, app, appVersion);
  }

  @FieldResolver(() => VersionType, { nullable: true, description: 'Only for authors and unlisted reviewers.' })
  latestUnlistedVersion(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return this.services.catalogue.latestUnlistedVersion(ctx, addon);
  }

  @FieldResolver(() => Boolean, {
    description: 'Whether the caller may see unlisted versions (authors, unlisted reviewers).',
  })
  canSeeUnlisted(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return this.services.catalogue.canSeeUnlisted(ctx, addon);
  }

  @FieldResolver(() => [App], { description: 'Applications whose featured list holds this add-on.' })
  featuredFor(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(featuredAppsByAddonId).load(addon.id);
  }

  @FieldResolver(() => String)
  iconUrl(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext, @IconSizeArg() size: number) {
    return addonIconUrl(ctx, addon, size);
  }

  @FieldResolver(() => String, { description: 'The add-on page on the website.' })
  url(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.addon(ctx.request.baseUrl, addon.slug);
  }

  @FieldResolver(() => String)
  editUrl(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.edit(ctx.request.baseUrl, addon.slug);
  }

  @FieldResolver(() => String)
  reviewUrl(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.review(ctx.request.baseUrl, addon.id);
  }

  @FieldResolver(() => String)
  ratingsUrl(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.ratings(ctx.request.baseUrl, addon.slug);
  }

  @FieldResolver(() => String)
  versionsUrl(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.versions(ctx.request.baseUrl, addon.slug);
  }
}
