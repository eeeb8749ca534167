import { Field, ObjectType } from 'type-graphql';
import { PageOf } from '../../graphql/pagination.js';

@ObjectType('ReplacementAddon', { description: 'What replaces an add-on id that is no longer supported.' })
export class ReplacementAddonType {
  @Field({ description: 'The add-on id (guid) replaced.' })
  guid!: string;

  @Field({ description: 'A path of this site (an add-on or collection page), or a URL elsewhere.' })
  path!: string;

  @Field(() => [String], {
    description:
      'The ids of the public add-ons the path stands for: the add-on of an add-on page, those of a listed ' +
      'collection; none for a URL elsewhere, another page, or when none is public.',
  })
  replacement!: string[];
}

@ObjectType('ReplacementAddonPage')
export class ReplacementAddonPageType extends PageOf(ReplacementAddonType) {}
