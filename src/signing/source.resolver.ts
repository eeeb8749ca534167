import GraphQLUpload from 'graphql-upload/GraphQLUpload.mjs';
import type { FileUpload as UploadedFile } from 'graphql-upload/processRequest.mjs';
import { Arg, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import { Requires, SIGN_IN, objectRule } from '../access/requirements.js';
import { editVersions, ownUpload } from './signing.access.js';
import { VersionType } from '../catalogue/catalogue.types.js';
import type { VersionRecord } from '../catalogue/catalogue.records.js';
import type { RequestContext } from '../core/context.js';
import { receiveUpload } from '../core/multipart.js';
import { TranslatedInputScalar } from '../graphql/scalars.js';
import { OwnTransactions } from '../graphql/transactions.js';
import type { SigningServices } from './services.js';
import { sourceByVersionId } from './source.service.js';
import { VersionFieldsInputType } from './version-edit.types.js';

/** Version source code archives (VersionSourceService): attaching one, and what a version shows of it. */
@Resolver(() => VersionType)
export class VersionSourceResolver {
  constructor(private readonly services: SigningServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.UPLOAD)
  @Requires(SIGN_IN, objectRule(editVersions))
  @OwnTransactions(
    'slow external work',
    'streams the archive (graphql-upload), checks and stores it before the source row and audit entry are written',
  )
  @Mutation(() => VersionType, {
    description:
      'Edit a version: its release notes, its other developer fields (`fields`), and its source code archive (.zip, .tar.gz, .tgz or .tar.bz2), replacing any earlier one. Send `apollo-require-preflight: true` with multipart requests.',
  })
  editVersion(
    @Arg('addon', { description: 'Add-on id, slug or guid.' }) addon: string,
    @Arg('id', () => Int) id: number,
    @Arg('source', () => GraphQLUpload, { nullable: true }) source: Promise<UploadedFile> | null,
    @Ctx() ctx: RequestContext,
    @Arg('releaseNotes', () => TranslatedInputScalar, {
      nullable: true,
      description: 'Omitted: unchanged; null: cleared.',
    })
    releaseNotes?: unknown,
    @Arg('fields', () => VersionFieldsInputType, {
      nullable: true,
      description: 'Notes for reviewers, disabling, licence, compatibility.',
    })
    fields?: VersionFieldsInputType | null,
  ) {
    return receiveUpload(source).then((file) =>
      this.services.versionSources.attach(ctx, addon, id, { source: file, releaseNotes, fields: fields ?? undefined }),
    );
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.UPLOAD)
  @Requires(SIGN_IN, objectRule(editVersions), objectRule(ownUpload))
  @OwnTransactions(
    'slow external work',
    'streams and checks the source archive (graphql-upload) and parses the stored package before the version is written in a transaction of its own',
  )
  @Mutation(() => VersionType, {
    description:
      'Submit a validated upload (`submitAddonVersion` with `submit: false`) as a new version of an existing add-on, ' +
      'optionally with its source code archive (checked first: a refused archive creates no version).',
  })
  createAddonVersion(
    @Arg('addon', { description: 'Add-on id, slug or guid.' }) addon: string,
    @Arg('uploadUuid') uploadUuid: string,
    @Arg('license', () => String, { nullable: true, description: "A built-in licence's slug." }) license: string | null,
    @Arg('source', () => GraphQLUpload, { nullable: true }) source: Promise<UploadedFile> | null,
    @Ctx() ctx: RequestContext,
    @Arg('releaseNotes', () => TranslatedInputScalar, { nullable: true }) releaseNotes?: unknown,
    @Arg('fields', () => VersionFieldsInputType, {
      nullable: true,
      description: 'Notes for reviewers, a custom licence, compatibility (bounds left out: the manifest’s).',
    })
    fields?: VersionFieldsInputType | null,
  ) {
    const { isDisabled: _ignored, ...created } = fields ?? {};
    return receiveUpload(source).then((file) =>
      this.services.versionSources.createVersion(
        ctx,
        addon,
        { uploadUuid, license: license ?? null, releaseNotes: releaseNotes ?? undefined, fields: created },
        file,
      ),
    );
  }

  @FieldResolver(() => Boolean, { description: 'Whether a source code archive is attached.' })
  async hasSource(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    return (await ctx.loaders.get(sourceByVersionId).load(version.id)) !== null;
  }

  @FieldResolver(() => String, {
    nullable: true,
    description:
      "Where the source code archive downloads; null without one, or unless the viewer is an author or a reviewer of the version's channel.",
  })
  sourceDownloadUrl(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    return this.services.versionSources.downloadUrl(ctx, version);
  }
}
