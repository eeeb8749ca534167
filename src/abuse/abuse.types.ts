import { Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { UserSummaryType } from '../accounts/accounts.summary.js';
import { PageOf } from '../graphql/pagination.js';

export enum AbuseReportStateEnum {
  OPEN = 'open',
  RESOLVED = 'resolved',
}
registerEnumType(AbuseReportStateEnum, {
  name: 'AbuseReportState',
  description: 'OPEN until a moderator resolves the report.',
});

@ObjectType('AbuseReportAddon', {
  description: 'The reported add-on: `id` and `slug` are null when its guid names no add-on of the site.',
})
export class AbuseReportAddonType {
  @Field(() => String, { nullable: true })
  guid!: string | null;

  @Field(() => Int, { nullable: true })
  id!: number | null;

  @Field(() => String, { nullable: true })
  slug!: string | null;
}

@ObjectType('AbuseReportTarget', { description: 'A reported rating or collection.' })
export class AbuseReportTargetType {
  @Field(() => Int)
  id!: number;
}

@ObjectType('AbuseReport', { description: 'A report of abuse about an add-on, a user, a rating or a collection.' })
export class AbuseReportType {
  @Field(() => Int)
  id!: number;

  @Field(() => AbuseReportAddonType, { nullable: true, description: 'Add-on reports.' })
  addon!: AbuseReportAddonType | null;

  @Field(() => UserSummaryType, { nullable: true, description: 'User reports: the reported user.' })
  user!: UserSummaryType | null;

  @Field(() => AbuseReportTargetType, { nullable: true, description: 'Rating reports: the reported rating.' })
  rating!: AbuseReportTargetType | null;

  @Field(() => AbuseReportTargetType, { nullable: true, description: 'Collection reports: the reported collection.' })
  collection!: AbuseReportTargetType | null;

  @Field(() => UserSummaryType, { nullable: true, description: 'Who reported (null: anonymous).' })
  reporter!: UserSummaryType | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's name, when given." })
  reporterName!: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's e-mail address, when given." })
  reporterEmail!: string | null;

  @Field(() => String, { nullable: true, description: 'Add-on reports: `amo`, `addon` or `both`.' })
  location!: string | null;

  @Field(() => String, { nullable: true, description: 'With the reason `illegal`: the DSA category.' })
  illegalCategory!: string | null;

  @Field(() => String, { nullable: true, description: 'With the reason `illegal`: a subcategory of the category.' })
  illegalSubcategory!: string | null;

  @Field({ description: 'Empty when an add-on report gives a reason instead.' })
  message!: string;

  @Field(() => String, { nullable: true })
  reason!: string | null;

  @Field(() => String, { nullable: true })
  reportEntryPoint!: string | null;

  @Field(() => String, { nullable: true })
  addonInstallMethod!: string | null;

  @Field(() => String, { nullable: true })
  addonInstallOrigin!: string | null;

  @Field(() => String, { nullable: true })
  addonInstallSource!: string | null;

  @Field(() => String, { nullable: true })
  addonInstallSourceUrl!: string | null;

  @Field(() => String, { nullable: true })
  addonName!: string | null;

  @Field(() => String, { nullable: true })
  addonSignature!: string | null;

  @Field(() => String, { nullable: true })
  addonSummary!: string | null;

  @Field(() => String, { nullable: true })
  addonVersion!: string | null;

  @Field(() => String, { nullable: true, description: '`browser` or `android`.' })
  app!: string | null;

  @Field(() => String, { nullable: true })
  appversion!: string | null;

  @Field(() => String, { nullable: true })
  lang!: string | null;

  @Field(() => String, { nullable: true, description: 'The hashed telemetry client id.' })
  clientId!: string | null;

  @Field(() => Date, { nullable: true })
  installDate!: Date | null;

  @Field(() => String, { nullable: true })
  operatingSystem!: string | null;

  @Field(() => String, { nullable: true })
  operatingSystemVersion!: string | null;

  @Field(() => Date)
  created!: Date;

  @Field(() => AbuseReportStateEnum)
  state!: AbuseReportStateEnum;

  @Field(() => Date, { nullable: true })
  resolvedAt!: Date | null;

  @Field(() => UserSummaryType, { nullable: true })
  resolvedBy!: UserSummaryType | null;

  @Field({ description: "The moderator's note when resolving." })
  resolutionNote!: string;
}

@ObjectType('AbuseReportPage')
export class AbuseReportPageType extends PageOf(AbuseReportType) {}

const CONTENT_REASONS = 'hateful_violent_deceptive, illegal, feedback_spam, something_else.';
const ADDON_REASONS =
  'damage, spam, settings, broken, policy, deceptive, unwanted, other (Firefox); ' +
  'hateful_violent_deceptive, illegal, policy_violation, something_else, does_not_work, feedback_spam (the feedback form).';
const REST_KEYS = 'Refusals are keyed by the REST field names (`report_entry_point`, …), as REST answers them.';

@InputType('AddonAbuseReportInput', {
  description:
    'An add-on report: every field is text (or null), checked as the REST report endpoint checks it. ' + REST_KEYS,
})
export class AddonAbuseReportInput {
  @Field(() => String, { nullable: true, description: 'Required: the add-on id, slug or guid.' })
  addon?: string | null;

  @Field(() => String, { nullable: true, description: 'Required unless `reason` is given.' })
  message?: string | null;

  @Field(() => String, { nullable: true, description: ADDON_REASONS })
  reason?: string | null;

  @Field(() => String, { nullable: true })
  lang?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's name." })
  reporterName?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's e-mail address." })
  reporterEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Required with the reason `illegal`, else omitted or null.' })
  illegalCategory?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Required with the reason `illegal`: a subcategory of the category.',
  })
  illegalSubcategory?: string | null;

  @Field(() => String, { nullable: true, description: 'Where the content is: amo, addon, both.' })
  location?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Only the 2019 Firefox reasons (damage … other) are choices; default false.',
  })
  firefoxReasonsOnly?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description:
      'Entry points and install sources by the original names (`amo`, `rtamo`), stored as `site` and `return_to_site`; default false.',
  })
  originalNames?: boolean | null;

  @Field(() => String, {
    nullable: true,
    description: 'uninstall, menu, toolbar_context_menu, site, unified_context_menu.',
  })
  reportEntryPoint?: string | null;

  @Field(() => String, { nullable: true, description: 'An unknown method is stored as `other`.' })
  addonInstallMethod?: string | null;

  @Field(() => String, { nullable: true })
  addonInstallOrigin?: string | null;

  @Field(() => String, { nullable: true, description: 'An unknown source is stored as `other`.' })
  addonInstallSource?: string | null;

  @Field(() => String, { nullable: true })
  addonInstallSourceUrl?: string | null;

  @Field(() => String, { nullable: true })
  addonName?: string | null;

  @Field(() => String, { nullable: true, description: "Firefox's `unknown: <detail>` is stored as `unknown`." })
  addonSignature?: string | null;

  @Field(() => String, { nullable: true })
  addonSummary?: string | null;

  @Field(() => String, { nullable: true })
  addonVersion?: string | null;

  @Field(() => String, { nullable: true, description: '`browser` (the default) or `android`.' })
  app?: string | null;

  @Field(() => String, { nullable: true })
  appversion?: string | null;

  @Field(() => String, { nullable: true, description: 'At most 64 characters.' })
  clientId?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601 date-time.' })
  installDate?: string | null;

  @Field(() => String, { nullable: true })
  operatingSystem?: string | null;

  @Field(() => String, { nullable: true })
  operatingSystemVersion?: string | null;
}

@InputType('UserAbuseReportInput', {
  description: 'A user report, checked as the REST report endpoint checks it. ' + REST_KEYS,
})
export class UserAbuseReportInput {
  @Field(() => String, { nullable: true, description: 'Required: the user id or username.' })
  user?: string | null;

  @Field(() => String, { nullable: true, description: 'Required unless `reason` is given.' })
  message?: string | null;

  @Field(() => String, { nullable: true, description: CONTENT_REASONS })
  reason?: string | null;

  @Field(() => String, { nullable: true })
  lang?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's name." })
  reporterName?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's e-mail address." })
  reporterEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Required with the reason `illegal`, else omitted or null.' })
  illegalCategory?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Required with the reason `illegal`: a subcategory of the category.',
  })
  illegalSubcategory?: string | null;
}

@InputType('RatingAbuseReportInput', { description: 'A rating report. ' + REST_KEYS })
export class RatingAbuseReportInput {
  @Field(() => String, { nullable: true, description: "Required: the rating's id." })
  rating?: string | null;

  @Field(() => String, { nullable: true, description: 'Required unless `reason` is given.' })
  message?: string | null;

  @Field(() => String, { nullable: true, description: CONTENT_REASONS })
  reason?: string | null;

  @Field(() => String, { nullable: true })
  lang?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's name." })
  reporterName?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's e-mail address." })
  reporterEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Required with the reason `illegal`, else omitted or null.' })
  illegalCategory?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Required with the reason `illegal`: a subcategory of the category.',
  })
  illegalSubcategory?: string | null;
}

@InputType('CollectionAbuseReportInput', { description: 'A collection report. ' + REST_KEYS })
export class CollectionAbuseReportInput {
  @Field(() => String, { nullable: true, description: "Required: the collection's id." })
  collection?: string | null;

  @Field(() => String, { nullable: true, description: 'Required unless `reason` is given.' })
  message?: string | null;

  @Field(() => String, { nullable: true, description: CONTENT_REASONS })
  reason?: string | null;

  @Field(() => String, { nullable: true })
  lang?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's name." })
  reporterName?: string | null;

  @Field(() => String, { nullable: true, description: "An anonymous reporter's e-mail address." })
  reporterEmail?: string | null;

  @Field(() => String, { nullable: true, description: 'Required with the reason `illegal`, else omitted or null.' })
  illegalCategory?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Required with the reason `illegal`: a subcategory of the category.',
  })
  illegalSubcategory?: string | null;
}

@InputType('AbuseReportFilter')
export class AbuseReportFilterInput {
  @Field(() => String, { nullable: true, description: 'Reports about this add-on (id, slug or guid).' })
  addon?: string | null;

  @Field(() => String, { nullable: true, description: 'Reports about this user (id or username).' })
  user?: string | null;

  @Field(() => String, { nullable: true })
  reason?: string | null;

  @Field(() => AbuseReportStateEnum, { nullable: true })
  state?: AbuseReportStateEnum | null;
}
