import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { ScannerAction } from './scanner.entity.js';

registerEnumType(ScannerAction, {
  name: 'ScannerAction',
  description:
    'What a scanner match does: nothing, flag the version for a human, delay automatic approval, or block (reject the version).',
});

@ObjectType('ScannerRule', { description: 'A YARA rule run on every upload (Admin:ScannersRulesEdit).' })
export class ScannerRuleType {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field({ description: 'Always `yara` today.' })
  scanner!: string;

  @Field({ description: 'The YARA text; compiled when saved.' })
  definition!: string;

  @Field(() => ScannerAction)
  action!: number;

  @Field({ description: 'Disabled rules are not run.' })
  isActive!: boolean;

  @Field()
  created!: Date;

  @Field()
  modified!: Date;
}

@InputType('ScannerRuleInput')
export class ScannerRuleInputType {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  definition?: string | null;

  @Field(() => ScannerAction, { nullable: true })
  action?: ScannerAction | null;

  @Field(() => Boolean, { nullable: true })
  isActive?: boolean | null;
}

@ObjectType('ScannerMatch')
export class ScannerMatchType {
  @Field({ description: 'The YARA rule, the secret rule (docs/operations.md, "Scanners"), or `lookalike`.' })
  rule!: string;

  @Field(() => String, { nullable: true, description: "The package's file that matched." })
  file?: string | null;

  @Field(() => Int, { nullable: true, description: 'The line (secrets), from 1.' })
  line?: number | null;

  @Field(() => Int, { nullable: true, description: 'Look-alike names: the public add-on whose name it imitates.' })
  addonId?: number | null;

  @Field(() => String, { nullable: true, description: "Look-alike names: that add-on's name." })
  name?: string | null;

  @Field(() => ScannerAction)
  action!: number;
}

@ObjectType('ScannerResult', { description: "One scanner's result for a version." })
export class ScannerResultType {
  @Field(() => Int)
  id!: number;

  @Field({ description: '`yara`, `secrets` or `lookalike`.' })
  scanner!: string;

  @Field(() => [ScannerMatchType])
  matches!: ScannerMatchType[];

  @Field(() => ScannerAction, { description: 'The strongest action of its matches.' })
  action!: number;

  @Field()
  created!: Date;
}
