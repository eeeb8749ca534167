import { Field, Int, ObjectType } from 'type-graphql';
import { PageOf } from '../graphql/pagination.js';

@ObjectType('CurationLogEntry', { description: 'One curation change.' })
export class CurationLogEntryType {
  @Field(() => Int)
  id!: number;

  @Field({ description: '`created`, `updated`, `enabled`, `disabled` or `deleted`.' })
  action!: string;

  @Field({
    description:
      '`primary_shelf`, `secondary_shelf`, `home_shelf`, `discovery_item`, `replacement_addon` or `browser_mapping`.',
  })
  subjectType!: string;

  @Field(() => Int)
  subjectId!: number;

  @Field(() => Int, { nullable: true, description: 'The curator (null once the account is deleted).' })
  userId!: number | null;

  @Field(() => Int, { nullable: true, description: 'The add-on concerned, if any.' })
  addonId!: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'JSON: `{"field": [before, after]}` of an edit, `{"shelf"|"item": …}` on creation and deletion.',
  })
  details!: string | null;

  @Field()
  created!: Date;
}

@ObjectType('CurationLogPage')
export class CurationLogPageType extends PageOf(CurationLogEntryType) {}
