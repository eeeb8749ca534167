import { Field, InputType, ObjectType } from 'type-graphql';

/** The developer agreement as the signed-in user stands with it. */
@ObjectType('DeveloperAgreement')
export class DeveloperAgreementType {
  @Field(() => String, { nullable: true, description: "The user's display name, if set." })
  displayName!: string | null;

  @Field({ description: 'Whether the user accepted the agreement in force (after its last change).' })
  hasReadDeveloperAgreement!: boolean;

  @Field({
    description: 'When the agreement last changed; sent back unchanged (`lastDeveloperAgreementChange`) to accept it.',
  })
  lastDeveloperAgreementChange!: Date;
}

@InputType('DeveloperAgreementInput')
export class DeveloperAgreementInputType {
  @Field(() => String, {
    nullable: true,
    description: 'A display name: required when the user has none, refused when they have one (profile rules).',
  })
  displayName?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Required: the date of the agreement in force (ISO 8601, as `developerAgreement` gives it); another date is refused.',
  })
  lastDeveloperAgreementChange?: string | null;
}
