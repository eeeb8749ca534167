import { ArgsType, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageArgs, PageOf } from '../../graphql/pagination.js';
import { AddonStatus, App, PromotedCategory } from '../catalogue.enums.js';
import { AddonPromotionType } from '../catalogue.types.js';
import { ActivityAction } from './lifecycle.enums.js';

registerEnumType(ActivityAction, {
  name: 'ActivityAction',
  description: 'What an audit log entry records: a lifecycle change or a review decision.',
});

@ObjectType('AddonLifecycleState', {
  description: "An add-on's lifecycle state, as the lifecycle operations leave it.",
})
export class AddonStateType {
  @Field(() => Int)
  id!: number;

  @Field(() => AddonStatus)
  status!: number;

  @Field({ description: 'Hidden by its developer: out of search and collections, detail only for its authors.' })
  isDisabledByDeveloper!: boolean;

  @Field({ description: 'Disabled by the vendor (status DISABLED): only an admin can enable it again.' })
  isDisabledByVendor!: boolean;

  @Field()
  isDeleted!: boolean;

  @Field({ description: 'Uploads with its add-on id are refused.' })
  isGuidDenied!: boolean;

  @Field(() => AddonPromotionType, { nullable: true })
  promoted!: AddonPromotionType | null;
}

@ObjectType('AddonActivity', { description: 'One audit log entry: who changed what, when, from and to.' })
export class AddonActivityType {
  @Field(() => Int)
  id!: number;

  @Field(() => ActivityAction)
  action!: string;

  @Field(() => Int)
  addonId!: number;

  @Field(() => Int, { nullable: true })
  versionId!: number | null;

  @Field(() => String, { nullable: true, description: 'The version string, when the entry is about a version.' })
  version!: string | null;

  @Field(() => AddonStatus, { description: "The add-on's status before the change." })
  fromStatus!: number;

  @Field(() => AddonStatus, { description: "The add-on's status after the change." })
  toStatus!: number;

  @Field({ description: 'The reason or comment given with the change (empty if none).' })
  comments!: string;
}

@ObjectType()
export class AddonActivityPage extends PageOf(AddonActivityType) {}

@ArgsType()
export class ActivityArgs extends PageArgs {
  @Field(() => [ActivityAction], { nullable: true, description: 'Only these actions (default: all).' })
  actions?: string[] | null;
}

@InputType('AddonPromotionInput')
export class AddonPromotionInput {
  @Field(() => PromotedCategory)
  category!: number;

  @Field(() => [App], { description: 'The applications it is promoted for (at least one).' })
  apps!: number[];
}
