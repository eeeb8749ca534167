import { GraphQLJSONObject } from 'graphql-scalars';
import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { VersionType } from '../../catalogue/catalogue.types.js';
import type { RequestContext } from '../../core/context.js';
import type { ReviewsServices } from '../services.js';
import { PackageFileDownloadType, VersionComparisonType, VersionContentsType } from './browse.types.js';
import { Permission } from '../../access/permissions.js';
import { Requires, anyOf, objectRule } from '../../access/requirements.js';
import { LISTED_REVIEWER_PERMISSIONS } from '../../catalogue/catalogue.permissions.js';
import { readAddonVersions, readFileValidation, readVersionMaterial } from '../review-material-access.js';

/** Reviewers browsing and comparing versions' files (VersionBrowseService holds the rules). */
@Resolver()
export class VersionBrowseResolver {
  constructor(private readonly services: ReviewsServices) {}

  @Requires(objectRule(readAddonVersions))
  @Query(() => [VersionType], {
    description: "An add-on's versions for reviewers, newest first.",
  })
  reviewerVersions(@Arg('addon', { description: 'Id, slug or guid.' }) addon: string, @Ctx() ctx: RequestContext) {
    return this.services.versionBrowse.versions(ctx, addon);
  }

  @Requires(objectRule(readVersionMaterial))
  @Query(() => VersionContentsType, {
    description:
      "A version's file tree and one file: `file` (a path from the package root), or the manifest by default.",
  })
  browseVersion(
    @Arg('addon', { description: 'Id, slug or guid.' }) addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Ctx() ctx: RequestContext,
    @Arg('file', () => String, { nullable: true }) file?: string | null,
  ) {
    return this.services.versionBrowse.browse(ctx, addon, versionId, file ?? null);
  }

  @Requires(objectRule(readVersionMaterial))
  @Query(() => VersionComparisonType, {
    description:
      'A version compared with a base version of the same add-on: every path with its status, and the selected file’s diff.',
  })
  compareVersions(
    @Arg('addon', { description: 'Id, slug or guid.' }) addon: string,
    @Arg('baseVersionId', () => Int) baseVersionId: number,
    @Arg('versionId', () => Int) versionId: number,
    @Ctx() ctx: RequestContext,
    @Arg('file', () => String, { nullable: true }) file?: string | null,
  ) {
    return this.services.versionBrowse.compare(ctx, addon, baseVersionId, versionId, file ?? null);
  }

  @Requires(objectRule(readVersionMaterial))
  @Query(() => PackageFileDownloadType, {
    description: "A file of a version's package, for download (the same access as browsing the version).",
  })
  packageFileDownload(
    @Arg('addon', { description: 'Id, slug or guid.' }) addon: string,
    @Arg('versionId', () => Int) versionId: number,
    @Arg('file') file: string,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.versionBrowse.download(ctx, addon, versionId, file);
  }

  @Requires(anyOf(...LISTED_REVIEWER_PERMISSIONS, Permission.ADDONS_REVIEW_UNLISTED), objectRule(readFileValidation))
  @Query(() => GraphQLJSONObject, {
    description: "A file's addons-linter results (the validation of the upload its version came from).",
  })
  fileValidation(
    @Arg('addon', { description: 'Id, slug or guid.' }) addon: string,
    @Arg('fileId', () => Int) fileId: number,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.versionBrowse.fileValidation(ctx, addon, fileId);
  }
}
