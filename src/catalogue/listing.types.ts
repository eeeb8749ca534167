import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TranslatedInputScalar } from '../graphql/scalars.js';
import { App } from './catalogue.enums.js';

export const AuthorRole = { OWNER: 5, DEVELOPER: 4 } as const;
export type AuthorRole = (typeof AuthorRole)[keyof typeof AuthorRole];
registerEnumType(AuthorRole, {
  name: 'AuthorRole',
  description: 'Owners manage authors; developers edit the listing.',
});

/** One author as the add-on's own authors see it (every author, listed or not, with the address). */
@ObjectType('AddonAuthorDetail')
export class AddonAuthorDetailType {
  @Field(() => Int)
  userId!: number;

  @Field({ description: 'Display name, else the username.' })
  name!: string;

  @Field()
  email!: string;

  @Field(() => AuthorRole)
  role!: AuthorRole;

  @Field()
  listed!: boolean;

  @Field(() => Int)
  position!: number;
}

@InputType()
export class CategoryRefInput {
  @Field(() => App)
  application!: App;

  @Field()
  slug!: string;
}

@InputType({ description: 'A built-in licence number, or a custom licence with a name and a text.' })
export class LicenseInput {
  @Field(() => Int, { nullable: true })
  builtin?: number | null;

  @Field(() => TranslatedInputScalar, { nullable: true })
  name?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  text?: unknown;
}

@InputType({
  description: 'Only the fields given change. Translated fields take a string (request language) or an object.',
})
export class UpdateAddonListingInput {
  @Field(() => TranslatedInputScalar, { nullable: true })
  name?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  summary?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  description?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  developerComments?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  homepage?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  supportUrl?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true })
  supportEmail?: unknown;

  @Field(() => String, { nullable: true })
  contributionsUrl?: string | null;

  @Field(() => [CategoryRefInput], {
    nullable: true,
    description: 'Replaces the categories (at most 2 per application).',
  })
  categories?: CategoryRefInput[] | null;

  @Field(() => [String], { nullable: true, description: 'Replaces the tags (at most 10).' })
  tags?: string[] | null;

  @Field(() => LicenseInput, { nullable: true, description: 'Licence of the current version.' })
  license?: LicenseInput | null;

  @Field(() => Boolean, { nullable: true })
  requiresPayment?: boolean | null;

  @Field(() => String, { nullable: true })
  defaultLocale?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Letters, digits, `-`, `_` and `~`, not all digits, at most 30 characters; unique.',
  })
  slug?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Marked by its developers as experimental.' })
  isExperimental?: boolean | null;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'The licence agreement (not for themes).' })
  eula?: unknown;

  @Field(() => TranslatedInputScalar, { nullable: true, description: 'The privacy policy (not for themes).' })
  privacyPolicy?: unknown;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Owners hide the add-on (true) or show it again (false), as `setAddonDisabledByDeveloper`.',
  })
  isDisabled?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'True: back to the default icon.' })
  clearIcon?: boolean | null;
}
