import { Field, InputType, Int, ObjectType } from 'type-graphql';
import type { Translations } from '../core/i18n/translations.js';
import { PageOf } from '../graphql/pagination.js';
import { TranslatedInputScalar, TranslationsScalar } from '../graphql/scalars.js';
import type { CollectionInput } from './collections.service.js';

@ObjectType('Collection', { description: "A user's collection of add-ons." })
export class CollectionType {
  @Field(() => Int)
  id!: number;

  @Field({ description: '32 hex digits, used to count installs made through the collection.' })
  uuid!: string;

  @Field({ description: "Unique among its author's collections; used in URLs." })
  slug!: string;

  @Field(() => TranslationsScalar, { nullable: true })
  name!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  description!: Translations | null;

  @Field({ description: 'Locale of the name and description.' })
  defaultLocale!: string;

  @Field({ name: 'public', description: 'Anyone with the URL may see it.' })
  listed!: boolean;

  @Field()
  created!: Date;

  @Field({ description: 'Last change of the collection or of its add-ons.' })
  modified!: Date;
}

@ObjectType('CollectionAddon', { description: "An add-on in a collection, with the collector's notes." })
export class CollectionAddonType {
  @Field(() => TranslationsScalar, { nullable: true })
  notes!: Translations | null;

  @Field({ name: 'added', description: 'When it was added to the collection.' })
  created!: Date;
}

@ObjectType('CollectionPage')
export class CollectionPageType extends PageOf(CollectionType) {}

@ObjectType('CollectionAddonPage')
export class CollectionAddonPageType extends PageOf(CollectionAddonType) {}

@InputType('CollectionInput', {
  description:
    'Only the fields given change; creation needs `name` and `slug`. Translated fields take a string ' +
    '(request language) or an object.',
})
export class CollectionInputType implements CollectionInput {
  @Field(() => TranslatedInputScalar, { nullable: true, description: 'Not blank.' })
  name?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'No links.' })
  description?: unknown;

  @Field(() => String, {
    nullable: true,
    description: 'At most 30 lower-case letters, digits, `-`, `_` or `~`; unique per author.',
  })
  slug?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  public?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Default en-US.' })
  defaultLocale?: string | null;
}
