import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { AddonType } from '../catalogue/catalogue.enums.js';
import type { Translations } from '../core/i18n/translations.js';
import { TranslatedInputScalar, TranslationsScalar } from '../graphql/scalars.js';
import type { HomeShelfEndpoint } from './home-shelf.criteria.js';
import type { HomeShelfInput } from './home-shelves.service.js';

@ObjectType('HomeShelf', {
  description: "A home page shelf: a title, the add-ons of a search or of one of the vendor's collections, a footer.",
})
export class HomeShelfType {
  @Field(() => Int)
  id!: number;

  @Field(() => TranslationsScalar)
  title!: Translations;

  @Field(() => String, { description: '`search` or `collections`.' })
  endpoint!: HomeShelfEndpoint;

  @Field(() => AddonType, { description: 'EXTENSION or STATICTHEME.' })
  addonType!: number;

  @Field({
    description:
      "`search`: a search query string (`?promoted=recommended&sort=random`; without `type`, the shelf's type); " +
      "`collections`: the slug of a collection of the vendor's account.",
  })
  criteria!: string;

  @Field(() => TranslationsScalar, { nullable: true })
  footerText!: Translations | null;

  @Field(() => String, { nullable: true, description: 'A site pathname or an http(s) URL.' })
  footerPathname!: string | null;

  @Field(() => Int, { description: "As stored; 0: the type's default (4 extensions, 3 themes)." })
  addonCount!: number;

  @Field(() => Int, { description: 'How many add-ons the shelf shows at most.' })
  shownCount!: number;

  @Field(() => String, {
    nullable: true,
    description: 'The username whose collection a `collections` shelf lists; null for searches.',
  })
  collectionOwner!: string | null;

  @Field()
  enabled!: boolean;

  @Field(() => Int, { description: 'Lists are in ascending position, then id.' })
  position!: number;
}

@InputType('HomeShelfInput', {
  description: 'Only the fields given change; creation needs `title`, `endpoint`, `addonType` and `criteria`.',
})
export class HomeShelfInputType implements HomeShelfInput {
  @Field(() => TranslatedInputScalar, { nullable: true, description: 'Not blank, at most 70 characters.' })
  title?: unknown;

  @Field(() => String, { nullable: true, description: '`search` or `collections`.' })
  endpoint?: string | null;

  @Field(() => String, { nullable: true, description: '`extension` or `statictheme`.' })
  addonType?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'At most 200 characters; a search the search service accepts (`search`), or a listed collection slug of the ' +
      "vendor's account (`collections`).",
  })
  criteria?: string | null;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'At most 70 characters; null or blank: none.' })
  footerText?: unknown;

  @Field(() => String, {
    nullable: true,
    description: 'A site pathname (`/collections/…`) or an http(s) URL, at most 255 characters; null or blank: none.',
  })
  footerPathname?: string | null;

  @Field(() => Int, { nullable: true, description: "0 to 100; 0 (the default): the type's default." })
  addonCount?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Default false.' })
  enabled?: boolean | null;

  @Field(() => Int, { nullable: true, description: '0 to 32767, default 0.' })
  position?: number | null;
}
