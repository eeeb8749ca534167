import { Field, Int, ObjectType } from 'type-graphql';
import { AddonObjectType, FileType, VersionType } from '../../catalogue/catalogue.types.js';

@ObjectType('PackageEntry', { description: "A file or directory of a version's package." })
export class PackageEntryType {
  @Field({ description: 'Path from the root of the package.' })
  path!: string;

  @Field()
  filename!: string;

  @Field(() => Int, { description: 'Folder depth, from 0.' })
  depth!: number;

  @Field(() => String, {
    nullable: true,
    description: '`text`, `image`, `binary` or `directory`; null for a file deleted since the compared base.',
  })
  category!: string | null;

  @Field(() => String, { nullable: true })
  mimetype!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Hex sha256 of a file (null for directories and deleted files).',
  })
  sha256!: string | null;

  @Field(() => Int, { nullable: true, description: 'Bytes (null for directories and deleted files).' })
  size!: number | null;

  @Field(() => String, {
    nullable: true,
    description: "In a comparison, git's short status: `A` added, `D` deleted, `M` modified, '' unchanged.",
  })
  status!: string | null;
}

@ObjectType('DiffChange')
export class DiffChangeType {
  @Field({ description: 'The line, with its line ending.' })
  content!: string;

  @Field({ description: '`insert`, `delete` or `normal` (`…-eofnl` for a missing newline at the end of the file).' })
  type!: string;

  @Field(() => Int, { name: 'oldLineNumber', description: '-1 where the line has no old number.' })
  old_line_number!: number;

  @Field(() => Int, { name: 'newLineNumber', description: '-1 where the line has no new number.' })
  new_line_number!: number;
}

@ObjectType('DiffHunk')
export class DiffHunkType {
  @Field()
  header!: string;

  @Field(() => Int, { name: 'oldStart' })
  old_start!: number;

  @Field(() => Int, { name: 'newStart' })
  new_start!: number;

  @Field(() => Int, { name: 'oldLines' })
  old_lines!: number;

  @Field(() => Int, { name: 'newLines' })
  new_lines!: number;

  @Field(() => [DiffChangeType])
  changes!: DiffChangeType[];
}

@ObjectType('FileDiff', { description: "One file's changes between two versions (an unchanged file is one hunk)." })
export class FileDiffType {
  @Field()
  path!: string;

  @Field({ name: 'oldPath' })
  old_path!: string;

  @Field(() => Int, { description: 'Bytes of the file in the newer version (0 when deleted).' })
  size!: number;

  @Field(() => Int, { name: 'linesAdded' })
  lines_added!: number;

  @Field(() => Int, { name: 'linesDeleted' })
  lines_deleted!: number;

  @Field({
    name: 'isBinary',
    description:
      'A binary file, or one too large to show (a side over BROWSE_DIFF_MAX_KB or BROWSE_DIFF_MAX_LINES, as libgit2 marks blobs over its max_size): no hunks.',
  })
  is_binary!: boolean;

  @Field({ description: "git's short status: `A`, `D`, `M` or ''." })
  mode!: string;

  @Field(() => [DiffHunkType])
  hunks!: DiffHunkType[];

  @Field({ description: "The base package's sha256." })
  parent!: string;

  @Field({ description: "The newer package's sha256." })
  hash!: string;

  @Field({ name: 'oldEndingNewLine' })
  old_ending_new_line!: boolean;

  @Field({ name: 'newEndingNewLine' })
  new_ending_new_line!: boolean;
}

@ObjectType('SelectedPackageFile', { description: 'The file a browse or comparison selected.' })
export class SelectedPackageFileType {
  @Field(() => PackageEntryType)
  entry!: PackageEntryType;

  @Field(() => String, {
    nullable: true,
    description:
      "The file's text (browse only): '' for images, binaries, directories and files over BROWSE_CONTENT_MAX_KB.",
  })
  content!: string | null;

  @Field({ description: 'False for a file deleted since the compared base.' })
  exists!: boolean;

  @Field({ description: 'Listed by the linter as minified code it does not know (in either compared version).' })
  usesUnknownMinifiedCode!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Where to download the file (reviewer API, with credentials); null for a directory or a deleted file.',
  })
  downloadUrl!: string | null;
}

@ObjectType('VersionContents', { description: "A version's package for reviewers: its tree and one file." })
export class VersionContentsType {
  @Field(() => AddonObjectType)
  addon!: AddonObjectType;

  @Field(() => VersionType)
  version!: VersionType;

  @Field(() => [PackageEntryType])
  entries!: PackageEntryType[];

  @Field(() => SelectedPackageFileType)
  selected!: SelectedPackageFileType;

  @Field(() => FileType, { description: "The version's package file." })
  file!: FileType;

  @Field({ description: 'Whether the linter ran on the upload this version came from.' })
  hasBeenValidated!: boolean;

  @Field(() => String, { nullable: true, description: 'The validation report (HTML); null when not validated.' })
  validationUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'The validation report (JSON); null when not validated.' })
  validationJsonUrl!: string | null;
}

@ObjectType('VersionComparison', { description: 'A version compared with a base version of the same add-on.' })
export class VersionComparisonType extends VersionContentsType {
  @Field(() => VersionType)
  base!: VersionType;

  @Field(() => FileType, { description: "The base version's package file." })
  baseFile!: FileType;

  @Field(() => FileDiffType, { nullable: true, description: "The selected file's diff (null for a directory)." })
  diff!: FileDiffType | null;
}

@ObjectType('PackageFileDownload', { description: "A file of a version's package the caller may download." })
export class PackageFileDownloadType {
  @Field(() => Int, { description: "The version's package file." })
  fileId!: number;

  @Field()
  path!: string;

  @Field()
  filename!: string;

  @Field(() => Int)
  size!: number;
}
