import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import type { Translations } from '../core/i18n/translations.js';
import { TranslationsScalar } from '../graphql/scalars.js';
import type { CatalogueServices } from './services.js';
import { addonById, compatByVersionId, filesByVersionId, licenseById, licenseTextById } from './catalogue.loaders.js';
import { CompatibilityType, FileType, LicenseType, PreviewType, VersionType } from './catalogue.types.js';
import type { FileRecord, LicenseRecord, PreviewRecord, VersionRecord } from './catalogue.records.js';
import { licenseSlug } from './license.entity.js';
import { catalogueUrls } from './catalogue.urls.js';

@Resolver(() => VersionType)
export class VersionResolver {
  constructor(private readonly services: CatalogueServices) {}

  @FieldResolver(() => LicenseType, { nullable: true })
  license(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    return version.license ? ctx.loaders.get(licenseById).load(version.license.id) : null;
  }

  @FieldResolver(() => [CompatibilityType])
  compatibility(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(compatByVersionId).load(version.id);
  }

  @FieldResolver(() => [FileType])
  files(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(filesByVersionId).load(version.id);
  }

  @FieldResolver(() => Boolean, { description: 'Clients enforce `max` compatibility only when this is true.' })
  async isStrictCompatibilityEnabled(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.get(filesByVersionId).load(version.id)).some((f) => f.strictCompatibility);
  }

  @FieldResolver(() => String, { description: 'The version page on the website.' })
  async url(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    const addon = await ctx.loaders.get(addonById).load(version.addon.id);
    return catalogueUrls.version(ctx.request.baseUrl, addon?.slug ?? String(version.addon.id), version.version);
  }

  @FieldResolver(() => String)
  async editUrl(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    const addon = await ctx.loaders.get(addonById).load(version.addon.id);
    return catalogueUrls.versionEdit(ctx.request.baseUrl, addon?.slug ?? String(version.addon.id), version.id);
  }
}

@Resolver(() => LicenseType)
export class LicenseResolver {
  @FieldResolver(() => Boolean)
  isCustom(@Root() license: LicenseRecord) {
    return license.builtin === 0;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description: "A built-in licence's slug (SPDX where one exists); null for custom ones.",
  })
  slug(@Root() license: LicenseRecord) {
    return licenseSlug(license.builtin);
  }

  @FieldResolver(() => TranslationsScalar, { nullable: true })
  text(@Root() license: LicenseRecord, @Ctx() ctx: RequestContext): Promise<Translations | null> {
    return ctx.loaders.get(licenseTextById).load(license.id);
  }
}

@Resolver(() => FileType)
export class FileResolver {
  @FieldResolver(() => String, { description: 'Absolute download URL.' })
  url(@Root() file: FileRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.file(ctx.request.baseUrl, file.id, file.filename);
  }
}

@Resolver(() => PreviewType)
export class PreviewResolver {
  @FieldResolver(() => String)
  imageUrl(@Root() preview: PreviewRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.preview(ctx.request.baseUrl, preview.id, 'full', preview.imageFormat, preview.modified);
  }

  @FieldResolver(() => String)
  thumbnailUrl(@Root() preview: PreviewRecord, @Ctx() ctx: RequestContext) {
    return catalogueUrls.preview(ctx.request.baseUrl, preview.id, 'thumbs', preview.imageFormat, preview.modified);
  }
}
