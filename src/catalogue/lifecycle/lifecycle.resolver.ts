import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { NESTED_USER, UserSummaryType } from '../../accounts/accounts.summary.js';
import { UserType } from '../../accounts/accounts.types.js';
import type { RequestContext } from '../../core/context.js';
import type { CatalogueServices } from '../services.js';
import { AddonStatus } from '../catalogue.enums.js';
import { AddonPromotionType } from '../catalogue.types.js';
import type { ActivityRecord } from './activity.service.js';
import type { ActivityAction } from './lifecycle.enums.js';
import type { AddonState } from './lifecycle.state.js';
import {
  ActivityArgs,
  AddonActivityPage,
  AddonActivityType,
  AddonPromotionInput,
  AddonStateType,
} from './lifecycle.types.js';
import { Requires, SIGN_IN, anyOf, objectRule } from '../../access/requirements.js';
import { administerAddons, ownAddon, readAddonActivity, readUserActivity } from './lifecycle.policy.js';
import { Permission } from '../../access/permissions.js';
import { deleteVersionByRef, type VersionRef } from './version-deletion.js';
import { Accepts } from '../../access/credentials.js';
import { KeyOperation, KeyScope } from '../../access/key-scopes.js';

const ADDON = { description: 'Id, slug or guid.' };

function stateType(state: AddonState): AddonStateType {
  return {
    id: state.id,
    status: state.status,
    isDisabledByDeveloper: state.disabledByUser,
    isDisabledByVendor: state.status === AddonStatus.DISABLED,
    isDeleted: state.status === AddonStatus.DELETED,
    isGuidDenied: state.guidDenied,
    promoted: state.promotedCategory === null ? null : { category: state.promotedCategory, apps: state.promotedApps },
  };
}

/** The add-on lifecycle's operations (developers, admins, curators) and its audit log. */
@Resolver(() => AddonActivityType)
export class LifecycleResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(objectRule(ownAddon))
  @Mutation(() => AddonStateType, {
    description:
      'Owners hide their add-on (true) or show it again (false): a hidden add-on leaves search and collections, ' +
      'its detail answers only its authors and reviewers, and listed uploads are refused. Not while disabled by an admin.',
  })
  async setAddonDisabledByDeveloper(
    @Arg('addon', ADDON) addon: string,
    @Arg('disabled') disabled: boolean,
    @Ctx() ctx: RequestContext,
  ) {
    return stateType(await this.services.lifecycle.setDisabledByDeveloper(ctx, addon, disabled));
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(objectRule(ownAddon, { note: ', or Addons:Edit (owners only with a confirmation)' }))
  @Mutation(() => Boolean, {
    description:
      'Delete an add-on. It is not found afterwards; its add-on id and version numbers stay taken. With ' +
      '`confirmation` (the two-step delete), only its owners, with a token of `addonDeleteConfirmation`.',
  })
  deleteAddon(
    @Arg('addon', ADDON) addon: string,
    @Ctx() ctx: RequestContext,
    @Arg('reason', () => String, { nullable: true }) reason?: string | null,
    @Arg('confirmation', () => String, { nullable: true }) confirmation?: string | null,
  ) {
    return this.services.lifecycle.deleteAddon(ctx, addon, reason ?? null, confirmation);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.LISTING)
  @Requires(SIGN_IN, objectRule(ownAddon))
  @Query(() => String, {
    description: "A token confirming the add-on's deletion (`deleteAddon`'s `confirmation`), good for 60 seconds.",
  })
  addonDeleteConfirmation(@Arg('addon', ADDON) addon: string, @Ctx() ctx: RequestContext) {
    return this.services.lifecycle.deleteConfirmation(ctx, addon);
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.UPLOAD)
  @Requires(objectRule(ownAddon, { note: ', or Addons:Edit; not while disabled by an administrator' }))
  @Mutation(() => AddonStateType, {
    description:
      'Delete a version, named by `versionId` or by its version string `number`. Its version number can never be uploaded again.',
  })
  async deleteAddonVersion(
    @Arg('addon', ADDON) addon: string,
    @Ctx() ctx: RequestContext,
    @Arg('versionId', () => Int, { nullable: true }) versionId?: number | null,
    @Arg('number', () => String, { nullable: true, description: 'The version string, instead of `versionId`.' })
    number?: string | null,
  ) {
    const ref: VersionRef =
      versionId === null || versionId === undefined ? { number: number ?? '' } : { id: versionId };
    return stateType(await deleteVersionByRef(ctx, this.services.catalogue, this.services.lifecycle, addon, ref));
  }

  @Requires(objectRule(administerAddons, { note: ', checked after the comment' }))
  @Mutation(() => AddonStateType, {
    description:
      'Admins disable an add-on (true: status DISABLED) or enable it (false: public with an ' +
      'approved listed version, else awaiting review or incomplete). Idempotent.',
  })
  async setAddonDisabledByVendor(
    @Arg('addon', ADDON) addon: string,
    @Arg('disabled') disabled: boolean,
    @Ctx() ctx: RequestContext,
    @Arg('comment', () => String, { nullable: true }) comment?: string | null,
  ) {
    return stateType(await this.services.lifecycle.setDisabledByVendor(ctx, addon, disabled, comment ?? null));
  }

  @Requires(objectRule(administerAddons, { note: ', checked after the comment' }))
  @Mutation(() => AddonStateType, {
    description:
      "Admins deny (true) or allow (false) uploads with the add-on's id. CONFLICT when it is " +
      'already so, or the add-on has no id.',
  })
  async setAddonResubmissionDenied(
    @Arg('addon', ADDON) addon: string,
    @Arg('denied') denied: boolean,
    @Ctx() ctx: RequestContext,
    @Arg('comment', () => String, { nullable: true }) comment?: string | null,
  ) {
    return stateType(await this.services.lifecycle.setResubmissionDenied(ctx, addon, denied, comment ?? null));
  }

  @Requires(anyOf(Permission.ADDONS_EDIT))
  @Mutation(() => Boolean, {
    description: 'Refuse an add-on id for good: uploads with it fail. False if it was already denied.',
  })
  denyAddonGuid(
    @Arg('guid') guid: string,
    @Ctx() ctx: RequestContext,
    @Arg('comments', () => String, { nullable: true }) comments?: string | null,
  ) {
    return this.services.lifecycle.denyGuid(ctx, guid, comments ?? null);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => AddonStateType, {
    description:
      'Curators promote an add-on in a category for some applications, or stop (promotion null). ' +
      'Detail shows it as `promoted`; search filters on it.',
  })
  async setAddonPromotion(
    @Arg('addon', ADDON) addon: string,
    @Arg('promotion', () => AddonPromotionInput, { nullable: true }) promotion: AddonPromotionInput | null,
    @Ctx() ctx: RequestContext,
  ) {
    return stateType(await this.services.lifecycle.setPromotion(ctx, addon, promotion));
  }

  @Requires(SIGN_IN, objectRule(readAddonActivity))
  @Query(() => AddonActivityPage, {
    description: "An add-on's audit log, newest first.",
  })
  addonActivity(@Arg('addon', ADDON) addon: string, @Args() args: ActivityArgs, @Ctx() ctx: RequestContext) {
    const actions = args.actions as ActivityAction[] | null | undefined;
    return this.services.activity.forAddon(ctx, addon, actions, args.page, args.pageSize);
  }

  @Requires(SIGN_IN, objectRule(readUserActivity))
  @Query(() => AddonActivityPage, {
    description: 'What a user did to add-ons, newest first.',
  })
  userActivity(@Arg('userId', () => Int) userId: number, @Args() args: ActivityArgs, @Ctx() ctx: RequestContext) {
    const actions = args.actions as ActivityAction[] | null | undefined;
    return this.services.activity.forUser(ctx, userId, actions, args.page, args.pageSize);
  }

  @FieldResolver(() => Date)
  date(@Root() entry: ActivityRecord) {
    return entry.created;
  }

  @FieldResolver(() => UserType, {
    nullable: true,
    description: `Who did it (null for the service itself). ${NESTED_USER}`,
  })
  user(@Root() entry: ActivityRecord, @Ctx() ctx: RequestContext) {
    return this.services.accounts.visibleUser(ctx, entry.user);
  }

  @FieldResolver(() => UserSummaryType, { nullable: true, description: 'Who did it: the public minimum.' })
  userSummary(@Root() entry: ActivityRecord) {
    return entry.user;
  }

  @FieldResolver(() => AddonPromotionType, {
    nullable: true,
    description: 'PROMOTED: the promotion set; PROMOTION_CLEARED: the one removed.',
  })
  promotion(@Root() entry: ActivityRecord) {
    const value = (entry.details?.promoted ?? entry.details?.previous ?? null) as AddonPromotionType | null;
    return value;
  }

  @FieldResolver(() => String, { nullable: true, description: 'The add-on id denied or allowed (RESUBMISSION_*).' })
  guid(@Root() entry: ActivityRecord) {
    return typeof entry.details?.guid === 'string' ? entry.details.guid : null;
  }

  @FieldResolver(() => Boolean, { nullable: true, description: 'VERSION_VALIDATED: whether the upload passed.' })
  valid(@Root() entry: ActivityRecord) {
    return typeof entry.details?.valid === 'boolean' ? entry.details.valid : null;
  }
}
