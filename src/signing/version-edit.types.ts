import { Field, InputType } from 'type-graphql';
import { TranslatedInputScalar } from '../graphql/scalars.js';

@InputType({ description: "One application's compatibility range of a version." })
export class VersionCompatibilityRangeInput {
  @Field({ description: 'The application: `browser` or `android`.' })
  application!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'A registered version of the application, without `*`. Omitted: the default (or the manifest’s, creating).',
  })
  min?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'A registered version of the application. Omitted: `*` (or the manifest’s, creating).',
  })
  max?: string | null;
}

@InputType({ description: 'A custom licence: its name and text, each translated.' })
export class CustomLicenseInput {
  @Field(() => TranslatedInputScalar, {
    nullable: true,
    description: 'Required unless the version’s licence is already custom.',
  })
  name?: unknown;

  @Field(() => TranslatedInputScalar, {
    nullable: true,
    description: 'Required unless the version’s licence is already custom.',
  })
  text?: unknown;
}

/** A version's developer-writable fields (`editVersion`, `createAddonVersion`); each omitted: unchanged. */
@InputType({ description: "A version's developer-writable fields; each omitted: unchanged." })
export class VersionFieldsInputType {
  @Field(() => String, {
    nullable: true,
    description: 'Notes for reviewers; only authors and reviewers read them. Null or empty: none.',
  })
  approvalNotes?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      "Disable the version (its files), or enable it again (not one disabled by the site's administrators). Edits only.",
  })
  isDisabled?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: "A built-in licence's slug (matching the add-on type). Not with `customLicense`.",
  })
  license?: string | null;

  @Field(() => CustomLicenseInput, {
    nullable: true,
    description: 'A custom licence (not for themes). Not with `license`.',
  })
  customLicense?: CustomLicenseInput | null;

  @Field(() => [VersionCompatibilityRangeInput], {
    nullable: true,
    description: 'The applications the version is compatible with (replacing its ranges).',
  })
  compatibility?: VersionCompatibilityRangeInput[] | null;
}
