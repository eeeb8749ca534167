import { Arg, Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { NESTED_USER, UserSummaryType } from '../accounts/accounts.summary.js';
import { UserType } from '../accounts/accounts.types.js';
import type { UserRecord } from '../accounts/accounts.records.js';
import type { RequestContext } from '../core/context.js';
import type { Translations } from '../core/i18n/translations.js';
import { TranslationsScalar } from '../graphql/scalars.js';
import type { CatalogueServices } from './services.js';
import type { AddonRecord, AuthorRecord } from './catalogue.records.js';
import { AddonAuthorType } from './catalogue.types.js';
import { ICON_SIZE_DESCRIPTION, catalogueUrls } from './catalogue.urls.js';
import { Shared } from '../graphql/shared-answers.js';

/** Description of a nested `Addon` field that follows the `addon` query. */
export const NESTED_ADDON =
  'As the `addon` query shows it: public add-ons for everyone, others for their authors and reviewers, ' +
  'deleted ones for Addons:ViewDeleted (null otherwise).';

/** Description of a nested `Version` field that follows the `addonVersion` query. */
export const NESTED_VERSION =
  'As the `addonVersion` query shows it: listed versions with an approved file of a visible add-on for ' +
  'everyone, others for authors and reviewers, deleted ones for Addons:ViewDeleted (null otherwise).';

/**
 * The public minimum of an add-on that another object names (a rating): what that object shows to
 * everyone, whatever the add-on's status, REST included. The `Addon` beside it follows the `addon`
 * query's rule and may be null.
 */
@Shared()
@ObjectType('AddonSummary', {
  description:
    'The public minimum of an add-on named by another object (id, slug, name, icon), shown to everyone. ' +
    'The full `Addon` next to it follows the `addon` query and is null where that query hides the add-on.',
})
export class AddonSummaryType {
  @Field(() => Int)
  id!: number;

  @Field()
  slug!: string;

  @Field()
  defaultLocale!: string;

  @Field(() => TranslationsScalar, { nullable: true })
  name!: Translations | null;
}

/** The `size` argument of an add-on's `iconUrl` (a summary's and a full add-on's alike). */
export const IconSizeArg = () => Arg('size', () => Int, { defaultValue: 64, description: ICON_SIZE_DESCRIPTION });

/** An add-on's icon URL at `size` (the default icon's when it has none). */
export function addonIconUrl(ctx: RequestContext, addon: AddonRecord, size: number): string {
  return catalogueUrls.icon(ctx.request.baseUrl, addon.id, addon.iconHash, addon.iconType, size);
}

@Resolver(() => AddonSummaryType)
export class AddonSummaryResolver {
  @FieldResolver(() => String)
  iconUrl(@Root() addon: AddonRecord, @Ctx() ctx: RequestContext, @IconSizeArg() size: number) {
    return addonIconUrl(ctx, addon, size);
  }
}

/** The public minimum of a version that another object names (a rating): its id and number. */
@Shared()
@ObjectType('VersionSummary', {
  description:
    'The public minimum of a version named by another object (id, number). The full `Version` next to it ' +
    'follows the `addonVersion` query and is null where that query hides the version.',
})
export class VersionSummaryType {
  @Field(() => Int)
  id!: number;

  @Field()
  version!: string;
}

/** An add-on's author: names for everyone; the account itself as the `user` query shows it. */
@Resolver(() => AddonAuthorType)
export class AddonAuthorResolver {
  constructor(private readonly services: CatalogueServices) {}

  @FieldResolver(() => UserType, { nullable: true, description: NESTED_USER })
  user(@Root() author: AuthorRecord, @Ctx() ctx: RequestContext): Promise<UserRecord | null> {
    return this.services.accounts.visibleUser(ctx, author.user);
  }

  @FieldResolver(() => UserSummaryType, { description: "The author's public minimum (id, names, profile URL)." })
  userSummary(@Root() author: AuthorRecord): UserRecord {
    return author.user;
  }
}
