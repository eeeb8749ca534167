import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Channel, FileStatus } from '../catalogue/catalogue.enums.js';

@ObjectType('UploadFile', { description: 'A file of the version made from an upload.' })
export class UploadFileType {
  @Field(() => Int)
  id!: number;

  @Field()
  filename!: string;

  @Field({ description: '`sha256:<hex>` of the bytes served: the signed file once signed.' })
  hash!: string;

  @Field()
  signed!: boolean;

  @Field(() => Int)
  status!: FileStatus;
}

@ObjectType('AddonUpload', { description: 'An uploaded package and where it is on its way to a signed version.' })
export class UploadType {
  @Field({ description: '32 hex digits.' })
  uuid!: string;

  @Field()
  guid!: string;

  @Field()
  version!: string;

  @Field(() => Channel)
  channel!: Channel;

  @Field({ description: 'Signed without a human once valid; otherwise the version waits in the review queue.' })
  automatedSigning!: boolean;

  @Field({ description: 'Validation finished (pass or fail).' })
  processed!: boolean;

  @Field({ description: 'Processed with no errors.' })
  valid!: boolean;

  @Field(() => GraphQLJSONObject, { nullable: true, description: 'addons-linter results, in the original shape.' })
  validationResults!: object | null;

  @Field(() => [UploadFileType], { description: "Files of the add-on's version with this version string." })
  files!: UploadFileType[];

  @Field({ description: 'Every file has been reviewed (approved automatically or by a human).' })
  reviewed!: boolean;

  @Field({ description: 'Every file is approved.' })
  active!: boolean;

  @Field()
  passedReview!: boolean;

  @Field()
  created!: Date;

  @Field({
    description:
      'Submitted to an add-on. An upload sent alone (`submit: false`) is validated first and becomes a version when submitted.',
  })
  submitted!: boolean;

  /** For the `addon` and `createdVersion` field resolvers. */
  addonId!: number | null;
  versionId!: number | null;
}

@InputType('SubmissionMetadataInput', {
  description:
    "A submission's listing: translated texts as objects of locales; a listed version needs a name, a summary, " +
    'categories and a licence (unless an earlier listed version has one).',
})
export class SubmissionMetadataInput {
  @Field(() => GraphQLJSON, { nullable: true })
  name?: unknown;

  @Field(() => GraphQLJSON, { nullable: true })
  summary?: unknown;

  @Field(() => GraphQLJSON, { nullable: true })
  description?: unknown;

  @Field(() => [String], { nullable: true, description: 'Category slugs of the browser application.' })
  categories?: string[] | null;

  @Field(() => String, { nullable: true, description: 'A built-in licence: MPL-2.0, MIT, all-rights-reserved, …' })
  license?: string | null;
}

@ObjectType('UploadSubmission')
export class UploadSubmissionType {
  @Field({ description: 'The upload created the add-on.' })
  addonCreated!: boolean;

  @Field(() => UploadType)
  upload!: UploadType;
}

@ObjectType('FileDownload', { description: 'A file the viewer may download, and how.' })
export class FileDownloadType {
  @Field(() => Int)
  id!: number;

  @Field()
  filename!: string;

  @Field()
  hash!: string;

  @Field({ description: 'Approved and listed on a public add-on: served by the public mirror.' })
  public!: boolean;
}
