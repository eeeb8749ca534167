import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Translations } from '../core/i18n/translations.js';
import { PageOf } from '../graphql/pagination.js';
import { TranslationsScalar } from '../graphql/scalars.js';

@ObjectType('Block', {
  description:
    'A block of an add-on id for a range of its versions: browsers disable the signed versions it covers ' +
    '(soft: the user may enable them again), and they are not signed again.',
})
export class BlockType {
  @Field(() => Int)
  id!: number;

  @Field({ description: 'The blocked add-on id (whether or not an add-on here has it).' })
  guid!: string;

  @Field(() => Int, { nullable: true, description: 'The add-on here with this id, if any.' })
  addonId!: number | null;

  @Field({ description: 'The lowest version blocked; "0" is the lowest there is.' })
  minVersion!: string;

  @Field({ description: 'The highest version blocked; "*" is the highest there is.' })
  maxVersion!: string;

  @Field(() => TranslationsScalar, { nullable: true, description: "The add-on's name, if an add-on here has the id." })
  addonName!: Translations | null;

  @Field({
    description:
      'Every version is blocked and none can come: no add-on here has the id (or it is disabled or deleted), ' +
      'and the block covers every signed version.',
  })
  isAllVersions!: boolean;

  @Field(() => [String], { description: 'The signed versions of the add-on id the range covers, in version order.' })
  versions!: readonly string[];

  @Field({ description: 'A soft block: the browser disables the add-on, and the user may enable it again.' })
  soft!: boolean;

  @Field(() => String, { nullable: true, description: 'Why, shown to users.' })
  reason!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the decision is documented.' })
  url!: string | null;

  @Field()
  created!: Date;

  @Field()
  modified!: Date;
}

@ObjectType('BlockPage')
export class BlockPageType extends PageOf(BlockType) {}

@InputType('BlockInput', {
  description: 'A block. On update, an omitted field keeps its value; the add-on id of a block cannot change.',
})
export class BlockInput {
  @Field(() => String, { nullable: true, description: 'The add-on id to block (required on creation).' })
  guid?: string | null;

  @Field(() => String, { nullable: true, description: 'Default "0" (the lowest version).' })
  minVersion?: string | null;

  @Field(() => String, { nullable: true, description: 'Default "*" (the highest version).' })
  maxVersion?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default false (a hard block).' })
  soft?: boolean | null;

  @Field(() => String, { nullable: true })
  reason?: string | null;

  @Field(() => String, { nullable: true, description: 'An http(s) URL.' })
  url?: string | null;
}

@ObjectType('BlocklistAttachment', { description: "A base filter's bytes: a filter cascade (format version 2)." })
export class BlocklistAttachmentType {
  @Field()
  filename!: string;

  @Field({ description: 'SHA-256 of the bytes, hexadecimal.' })
  hash!: string;

  @Field(() => Int)
  size!: number;

  @Field({ description: 'Where the bytes are, under the attachments base URL (/v1/attachments/).' })
  location!: string;

  @Field()
  mimetype!: string;
}

@ObjectType('BlocklistStash', {
  description: 'The keys (`<guid>:<version>`) whose state changed since the previous record.',
})
export class BlocklistStashType {
  @Field(() => [String])
  blocked!: string[];

  @Field(() => [String])
  softblocked!: string[];

  @Field(() => [String])
  unblocked!: string[];
}

@ObjectType('BlocklistRecord', {
  description:
    'A record of the published blocklist, as browsers read the collection: a base filter (hard or soft) with ' +
    'its attachment, or a stash applied on top of the bases, in `lastModified` order.',
})
export class BlocklistRecordType {
  @Field()
  id!: string;

  @Field(() => Number, { description: 'Milliseconds since the epoch.' })
  lastModified!: number;

  @Field(() => String, {
    nullable: true,
    description: '"bloomfilter-base" (hard blocks) or "softblocks-bloomfilter-base"; null for a stash.',
  })
  attachmentType!: string | null;

  @Field({ description: 'How keys are written: "{guid}:{version}".' })
  keyFormat!: string;

  @Field(() => Number, { nullable: true, description: 'Base filters: when they were generated (ms).' })
  generationTime!: number | null;

  @Field(() => Number, { nullable: true, description: 'Stashes: when they were published (ms).' })
  stashTime!: number | null;

  @Field(() => BlocklistAttachmentType, { nullable: true })
  attachment!: BlocklistAttachmentType | null;

  @Field(() => BlocklistStashType, { nullable: true })
  stash!: BlocklistStashType | null;
}
