import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
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
