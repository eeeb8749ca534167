import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { KeyOperation, KeyScope } from '../access/key-scopes.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { AbuseServices } from './services.js';
import type { AbuseReport } from './abuse-report.entity.js';
import {
  AbuseReportAddonType,
  AbuseReportFilterInput,
  AbuseReportPageType,
  AbuseReportStateEnum,
  AbuseReportTargetType,
  AbuseReportType,
  AddonAbuseReportInput,
  CollectionAbuseReportInput,
  RatingAbuseReportInput,
  UserAbuseReportInput,
} from './abuse.types.js';
import { Requires, PUBLIC, anyOf } from '../access/requirements.js';
import { OwnTransactions } from '../graphql/transactions.js';
import { ABUSE_MODERATOR_PERMISSIONS } from './abuse.service.js';

@ArgsType()
class AbuseReportsArgs extends PageArgs {
  @Field(() => AbuseReportFilterInput, { nullable: true })
  filter?: AbuseReportFilterInput | null;
}

/** Abuse reports (AbuseService holds the rules). */
@Resolver(() => AbuseReportType)
export class AbuseResolver {
  constructor(private readonly services: AbuseServices) {}

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(PUBLIC)
  @OwnTransactions(
    'commits before failing',
    'the daily throttles count every request that reaches them, whatever its outcome',
  )
  @Mutation(() => AbuseReportType, {
    description:
      'Reports an add-on (anyone; signed-in reporters are recorded). At most 20 reports a day per user and per ' +
      'client address (ABUSE_REPORTS_PER_DAY).',
  })
  reportAddon(@Arg('input') input: AddonAbuseReportInput, @Ctx() ctx: RequestContext) {
    return this.services.abuse.reportAddon(ctx, { ...input });
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(PUBLIC)
  @OwnTransactions(
    'commits before failing',
    'the daily throttles count every request that reaches them, whatever its outcome',
  )
  @Mutation(() => AbuseReportType, { description: 'Reports a user (anyone), within the same daily limits.' })
  reportUser(@Arg('input') input: UserAbuseReportInput, @Ctx() ctx: RequestContext) {
    return this.services.abuse.reportUser(ctx, { ...input });
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(PUBLIC)
  @OwnTransactions(
    'commits before failing',
    'the daily throttles count every request that reaches them, whatever its outcome',
  )
  @Mutation(() => AbuseReportType, { description: 'Reports a rating (anyone), within the same daily limits.' })
  reportRating(@Arg('input') input: RatingAbuseReportInput, @Ctx() ctx: RequestContext) {
    return this.services.abuse.reportRating(ctx, { ...input });
  }

  @Accepts('jwt', 'session')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(PUBLIC)
  @OwnTransactions(
    'commits before failing',
    'the daily throttles count every request that reaches them, whatever its outcome',
  )
  @Mutation(() => AbuseReportType, { description: 'Reports a collection (anyone), within the same daily limits.' })
  reportCollection(@Arg('input') input: CollectionAbuseReportInput, @Ctx() ctx: RequestContext) {
    return this.services.abuse.reportCollection(ctx, { ...input });
  }

  @Requires(anyOf(...ABUSE_MODERATOR_PERMISSIONS))
  @Query(() => AbuseReportPageType, { description: 'Abuse reports, newest first.' })
  abuseReports(@Args() { filter, page, pageSize }: AbuseReportsArgs, @Ctx() ctx: RequestContext) {
    return this.services.abuse.list(ctx, { ...filter }, page, pageSize);
  }

  @Requires(anyOf(...ABUSE_MODERATOR_PERMISSIONS))
  @Query(() => AbuseReportType, { description: 'One abuse report.' })
  abuseReport(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.abuse.get(ctx, id);
  }

  @Requires(anyOf(...ABUSE_MODERATOR_PERMISSIONS))
  @Mutation(() => AbuseReportType, {
    description:
      'Resolves an open report, with a note. `disableAddon` also disables the reported ' +
      'add-on (Reviews:Admin; recorded in its audit log with the note).',
  })
  resolveAbuseReport(
    @Arg('id', () => Int) id: number,
    @Ctx() ctx: RequestContext,
    @Arg('note', () => String, { nullable: true }) note?: string | null,
    @Arg('disableAddon', () => Boolean, { nullable: true }) disableAddon?: boolean | null,
  ) {
    return this.services.abuse.resolve(ctx, id, note ?? null, disableAddon ?? false);
  }

  @FieldResolver(() => AbuseReportStateEnum)
  state(@Root() report: AbuseReport) {
    return report.resolvedAt ? AbuseReportStateEnum.RESOLVED : AbuseReportStateEnum.OPEN;
  }

  @FieldResolver(() => AbuseReportTargetType, { nullable: true })
  rating(@Root() report: AbuseReport): AbuseReportTargetType | null {
    return report.rating ? { id: report.rating.id } : null;
  }

  @FieldResolver(() => AbuseReportTargetType, { nullable: true })
  collection(@Root() report: AbuseReport): AbuseReportTargetType | null {
    return report.collection ? { id: report.collection.id } : null;
  }

  @FieldResolver(() => AbuseReportAddonType, { nullable: true })
  addon(@Root() report: AbuseReport): AbuseReportAddonType | null {
    if (!report.addon && report.guid === null) return null;
    return { guid: report.addon?.guid ?? report.guid, id: report.addon?.id ?? null, slug: report.addon?.slug ?? null };
  }
}
