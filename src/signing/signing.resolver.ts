import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import { receiveUpload } from '../core/multipart.js';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { addonById, versionById } from '../catalogue/catalogue.loaders.js';
import { AddonObjectType, VersionType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { SigningServices } from './services.js';
import { FileDownloadType, SubmissionMetadataInput, UploadSubmissionType, UploadType } from './signing.types.js';
import { Requires, SIGN_IN, objectRule, SECOND_FACTOR } from '../access/requirements.js';
import { developerAgreement } from '../accounts/accounts.access.js';
import { downloadFile, ownUpload, readUploads, submitVersion } from './signing.access.js';
import { OwnTransactions } from '../graphql/transactions.js';

/** Uploading versions and following them to a signed file (the signing API's GraphQL side). */
@Resolver(() => UploadType)
export class SigningResolver {
  constructor(private readonly services: SigningServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.UPLOAD)
  @Requires(
    SECOND_FACTOR,
    objectRule(submitVersion),
    objectRule(developerAgreement),
    objectRule(ownUpload, { when: 'for uploadUuid' }),
  )
  @OwnTransactions(
    'slow external work',
    'streams the package (graphql-upload), stores it and parses it; UploadsService writes its rows in a transaction of its own afterwards, and removes the stored file when that fails',
  )
  @Mutation(() => UploadSubmissionType, {
    description:
      'Upload a package as a new version: of the add-on `guid` (created if unknown, like PUT), or of a new add-on ' +
      'whose id comes from the manifest or is generated (like POST). Validation and signing continue in the ' +
      'background: poll `addonUpload`. Send `apollo-require-preflight: true` with multipart requests. ' +
      'In two steps: `submit: false` with `upload` and `channel` only stores and validates ' +
      'the package; once valid, `uploadUuid` (with `guid`, or none for a new add-on, and `metadata`) submits it.',
  })
  async submitAddonVersion(
    @Arg('upload', () => GraphQLUpload, { nullable: true }) upload: Promise<UploadedFile> | null,
    @Ctx() ctx: RequestContext,
    @Arg('guid', () => String, { nullable: true }) guid?: string | null,
    @Arg('version', () => String, { nullable: true }) version?: string | null,
    @Arg('channel', () => String, { nullable: true, description: '`listed` or `unlisted`.' })
    channel?: string | null,
    @Arg('submit', () => Boolean, {
      defaultValue: true,
      description: 'False: store and validate the package only (submitted later with `uploadUuid`).',
    })
    submit?: boolean,
    @Arg('uploadUuid', () => String, {
      nullable: true,
      description: 'Submit this earlier upload (`submit: false`, processed and valid) instead of a file.',
    })
    uploadUuid?: string | null,
    @Arg('metadata', () => SubmissionMetadataInput, { nullable: true }) metadata?: SubmissionMetadataInput | null,
  ) {
    const submitted =
      uploadUuid !== null && uploadUuid !== undefined
        ? await this.services.uploads.submitUpload(ctx, {
            uuid: uploadUuid,
            guid: guid ?? null,
            metadata: { ...(metadata ?? {}) },
          })
        : await this.services.uploads.submitStream(ctx, {
            guid: guid ?? null,
            version: version ?? null,
            channel: channel ?? null,
            upload: await receiveUpload(upload),
            detached: submit === false,
          });
    return { addonCreated: submitted.created, upload: await this.services.uploads.describe(ctx, submitted.upload) };
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(SIGN_IN, objectRule(readUploads))
  @Query(() => UploadType, {
    description:
      'The upload of a version: the one named by `uuid`, else the newest. ' +
      'By `uuid` alone: any upload of the viewer, submitted or not.',
  })
  async addonUpload(
    @Ctx() ctx: RequestContext,
    @Arg('guid', () => String, { nullable: true }) guid?: string | null,
    @Arg('version', () => String, { nullable: true }) version?: string | null,
    @Arg('uuid', () => String, { nullable: true }) uuid?: string | null,
  ) {
    const upload =
      (guid === null || guid === undefined) && (version === null || version === undefined) && uuid
        ? await this.services.uploads.uploadByUuid(ctx, uuid)
        : await this.services.uploads.status(ctx, guid ?? '', version ?? '', uuid ?? null);
    return this.services.uploads.describe(ctx, upload);
  }

  @FieldResolver(() => AddonObjectType, { nullable: true, description: 'The add-on, once submitted.' })
  addon(@Root() upload: UploadType, @Ctx() ctx: RequestContext) {
    return upload.addonId === null ? null : ctx.loaders.get(addonById).load(upload.addonId);
  }

  @FieldResolver(() => VersionType, { nullable: true, description: 'The version made from this upload.' })
  createdVersion(@Root() upload: UploadType, @Ctx() ctx: RequestContext) {
    return upload.versionId === null ? null : ctx.loaders.get(versionById).load(upload.versionId);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.STATUS)
  @Requires(SIGN_IN, objectRule(downloadFile))
  @Query(() => FileDownloadType, {
    description: 'A file the viewer may download.',
  })
  fileDownload(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.downloads.describe(ctx, id);
  }
}
