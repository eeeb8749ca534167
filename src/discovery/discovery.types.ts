import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import type { Translations } from '../core/i18n/translations.js';
import { TranslatedInputScalar, TranslationsScalar } from '../graphql/scalars.js';
import { DiscoveryEdition, type DiscoveryItemInput } from './discovery.service.js';

registerEnumType(DiscoveryEdition, {
  name: 'DiscoveryEdition',
  valuesConfig: {
    DEFAULT: { description: 'Items by `position`.' },
    CHINA: { description: 'Items by `positionChina`; never recommendations.' },
  },
});

@ObjectType('DiscoveryItem', { description: 'An add-on of the discovery pane with its editorial texts.' })
export class DiscoveryItemType {
  @Field(() => Int, { nullable: true, description: 'Null for recommendations.' })
  id!: number | null;

  @Field(() => Int, { description: 'Place in the default edition (0: not shown there).' })
  position!: number;

  @Field(() => Int, { description: 'Place in the China edition (0: not shown there).' })
  positionChina!: number;

  @Field(() => TranslationsScalar, {
    nullable: true,
    description: 'Heading template: `{addon_name}`, `{start_sub_heading}`, `{end_sub_heading}` are replaced.',
  })
  customHeading!: Translations | null;

  @Field(() => TranslationsScalar, { nullable: true })
  customDescription!: Translations | null;

  @Field(() => TranslationsScalar, {
    nullable: true,
    description: "The custom description, else an extension's summary.",
  })
  description!: Translations | null;

  @Field({ description: "Replaced by a recommendation for the client's telemetry id." })
  isRecommendation!: boolean;
}

@InputType('DiscoveryItemInput', { description: 'Only the fields given change; creation needs `addon`.' })
export class DiscoveryItemInputType implements DiscoveryItemInput {
  @Field(() => String, {
    nullable: true,
    description: 'Id, slug or guid of an add-on that is not deleted and has no item yet.',
  })
  addon?: string | null;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'At most 255 characters.' })
  customHeading?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'At most 1,000 characters.' })
  customDescription?: unknown;

  @Field(() => Int, { nullable: true, description: '0 (not shown) to 32767.' })
  position?: number | null;

  @Field(() => Int, { nullable: true, description: '0 (not shown) to 32767.' })
  positionChina?: number | null;
}
