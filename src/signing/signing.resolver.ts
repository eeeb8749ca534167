import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import { receiveUpload } from '../core/multipart.js';
import { Accepts } from '../auth/credentials.js';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import type { Services } from '../services.js';
import { FileDownloadType, UploadSubmissionType, UploadType } from './signing.types.js';

/** Uploading versions and following them to a signed file (the signing API's GraphQL side). */
@Resolver()
export class SigningResolver {
  constructor(private readonly services: Services) {}

  @Accepts('jwt', 'session')
  @Mutation(() => UploadSubmissionType, {
    description:
      'Upload a package as a new version: of the add-on `guid` (created if unknown, like PUT), or of a new add-on ' +
      'whose id comes from the manifest or is generated (like POST). Validation and signing continue in the ' +
      'background: poll `addonUpload`. Send `apollo-require-preflight: true` with multipart requests.',
  })
  async submitAddonVersion(
    @Arg('upload', () => GraphQLUpload, { nullable: true }) upload: Promise<UploadedFile> | null,
    @Ctx() ctx: RequestContext,
    @Arg('guid', () => String, { nullable: true }) guid?: string | null,
    @Arg('version', () => String, { nullable: true }) version?: string | null,
    @Arg('channel', () => String, { nullable: true, description: '`listed` or `unlisted`.' })
    channel?: string | null,
  ) {
    const submitted = await this.services.uploads.submitStream(ctx, {
      guid: guid ?? null,
      version: version ?? null,
      channel: channel ?? null,
      upload: await receiveUpload(upload),
    });
    return { addonCreated: submitted.created, upload: await this.services.uploads.describe(ctx, submitted.upload) };
  }

  @Accepts('jwt', 'session')
  @Query(() => UploadType, {
    description: 'The upload of a version: the one named by `uuid`, else the newest. Authors only.',
  })
  async addonUpload(
    @Arg('guid') guid: string,
    @Arg('version') version: string,
    @Ctx() ctx: RequestContext,
    @Arg('uuid', () => String, { nullable: true }) uuid?: string | null,
  ) {
    const upload = await this.services.uploads.status(ctx, guid, version, uuid ?? null);
    return this.services.uploads.describe(ctx, upload);
  }

  @Accepts('jwt', 'session')
  @Query(() => FileDownloadType, {
    description: 'A file the viewer may download (authors and reviewers for non-public files).',
  })
  fileDownload(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.downloads.describe(ctx, id);
  }
}
