import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { AddonType } from '../catalogue/catalogue.enums.js';
import type { Translations } from '../core/i18n/translations.js';
import { TranslatedInputScalar, TranslationsScalar } from '../graphql/scalars.js';
import type { CtaInput, ModuleInput, PrimaryShelfInput, SecondaryShelfInput } from './shelves.service.js';
import { SHELF_GRADIENTS } from './shelves.rules.js';

@ObjectType('ShelfGradient', { description: 'Colour names of a primary shelf gradient.' })
export class ShelfGradientType {
  @Field()
  start!: string;

  @Field(() => String, { nullable: true, description: 'Null until one is chosen (disabled shelves only).' })
  end!: string | null;
}

@ObjectType('ShelfCta', { description: 'A call to action.' })
export class ShelfCtaType {
  @Field({ description: 'An http(s) URL (REST wraps it with `wrap_outgoing_links`).' })
  url!: string;

  @Field(() => TranslationsScalar, { nullable: true })
  text!: Translations | null;
}

@ObjectType('SecondaryShelfModule')
export class SecondaryShelfModuleType {
  @Field({ description: 'Icon URL.' })
  icon!: string;

  @Field(() => TranslationsScalar)
  description!: Translations;

  @Field(() => ShelfCtaType, { nullable: true })
  cta!: ShelfCtaType | null;
}

@ObjectType('ExternalAddon', { description: 'An add-on shown by its homepage (external primary shelves).' })
export class ExternalAddonType {
  @Field(() => Int)
  id!: number;

  @Field(() => String, { nullable: true })
  guid!: string | null;

  @Field(() => TranslationsScalar, { nullable: true })
  homepage!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  name!: Translations | null;

  @Field(() => AddonType)
  type!: number;

  @Field()
  defaultLocale!: string;
}

@ObjectType('PrimaryShelf', { description: 'A primary hero shelf: one add-on, a gradient and a featured image.' })
export class PrimaryShelfType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int, { description: 'Lists are in ascending position, then id.' })
  position!: number;

  @Field()
  enabled!: boolean;

  @Field({ name: 'external', description: 'The add-on is shown as `externalAddon` (by its homepage).' })
  isExternal!: boolean;

  @Field(() => ShelfGradientType)
  gradient!: ShelfGradientType;

  @Field(() => String, { nullable: true, description: 'Featured image URL.' })
  featuredImage!: string | null;

  @Field(() => TranslationsScalar, {
    nullable: true,
    description: "The shelf's description, or else the add-on's summary.",
  })
  description!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true, description: "The shelf's own description only." })
  ownDescription!: Translations | null;
}

@ObjectType('SecondaryShelf', { description: 'A secondary hero shelf: a headline, a call to action and 3 modules.' })
export class SecondaryShelfType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  position!: number;

  @Field()
  enabled!: boolean;

  @Field(() => TranslationsScalar)
  headline!: Translations;

  @Field(() => TranslationsScalar)
  description!: Translations;

  @Field(() => ShelfCtaType, { nullable: true })
  cta!: ShelfCtaType | null;

  @Field(() => [SecondaryShelfModuleType], { description: 'Always 3.' })
  modules!: SecondaryShelfModuleType[];
}

@ObjectType('HeroShelves')
export class HeroShelvesType {
  @Field(() => PrimaryShelfType, { nullable: true, description: 'One enabled primary shelf, chosen at random.' })
  primary!: PrimaryShelfType | null;

  @Field(() => SecondaryShelfType, { nullable: true, description: 'One enabled secondary shelf, chosen at random.' })
  secondary!: SecondaryShelfType | null;
}

@InputType('ShelfCtaInput', { description: 'URL and text together, or neither.' })
export class ShelfCtaInputType implements CtaInput {
  @Field(() => String, { nullable: true, description: 'An http(s) URL, at most 255 characters.' })
  url?: string | null;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'At most 20 characters.' })
  text?: unknown;
}

@InputType('PrimaryShelfInput', {
  description: 'Only the fields given change; creation needs `addon`. An enabled shelf needs a gradient.',
})
export class PrimaryShelfInputType implements PrimaryShelfInput {
  @Field(() => String, { nullable: true, description: 'Id, slug or guid of an add-on that is not deleted.' })
  addon?: string | null;

  @Field(() => TranslatedInputScalar, {
    nullable: true,
    description: "At most 250 characters; none: the add-on's summary is shown.",
  })
  description?: unknown;

  @Field(() => String, { nullable: true, description: 'An http(s) URL, at most 255 characters.' })
  featuredImage?: string | null;

  @Field(() => String, { nullable: true, description: `The gradient's end colour: ${SHELF_GRADIENTS.join(', ')}.` })
  gradient?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'Show the add-on by its homepage (it needs one); such shelves only need an add-on neither deleted nor disabled.',
  })
  external?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Default false.' })
  enabled?: boolean | null;

  @Field(() => Int, { nullable: true, description: '0 to 32767, default 0.' })
  position?: number | null;
}

@InputType('SecondaryShelfModuleInput')
export class SecondaryShelfModuleInputType implements ModuleInput {
  @Field(() => String, { nullable: true, description: 'Icon: an http(s) URL, at most 255 characters.' })
  icon?: string | null;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'Not blank, at most 50 characters.' })
  description?: unknown;

  @Field(() => ShelfCtaInputType, { nullable: true })
  cta?: ShelfCtaInputType | null;
}

@InputType('SecondaryShelfInput', {
  description: 'Only the fields given change; creation needs `headline`, `description` and `modules`.',
})
export class SecondaryShelfInputType implements SecondaryShelfInput {
  @Field(() => TranslatedInputScalar, { nullable: true, description: 'Not blank, at most 50 characters.' })
  headline?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'Not blank, at most 100 characters.' })
  description?: unknown;

  @Field(() => ShelfCtaInputType, { nullable: true, description: 'Null removes it.' })
  cta?: ShelfCtaInputType | null;

  @Field(() => [SecondaryShelfModuleInputType], { nullable: true, description: 'Exactly 3; replaces them all.' })
  modules?: SecondaryShelfModuleInputType[] | null;

  @Field(() => Boolean, { nullable: true, description: 'Default false.' })
  enabled?: boolean | null;

  @Field(() => Int, { nullable: true, description: '0 to 32767, default 0.' })
  position?: number | null;
}
