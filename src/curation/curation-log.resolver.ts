import { Args, ArgsType, Ctx, Field, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { CurationServices } from './services.js';
import { Requires, anyOf } from '../access/requirements.js';
import { Permission } from '../access/permissions.js';
import type { CurationLogEntry } from './curation-log.entity.js';
import type { CurationSubject } from './curation-log.js';
import { CurationLogEntryType, CurationLogPageType } from './curation-log.types.js';

@ArgsType()
class CurationLogArgs extends PageArgs {
  @Field(() => String, {
    nullable: true,
    description:
      '`primary_shelf`, `secondary_shelf`, `home_shelf`, `discovery_item`, `replacement_addon` or `browser_mapping`.',
  })
  subjectType?: CurationSubject | null;

  @Field(() => Int, { nullable: true })
  subjectId?: number | null;
}

@Resolver(() => CurationLogEntryType)
export class CurationLogResolver {
  constructor(private readonly services: CurationServices) {}

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Query(() => CurationLogPageType, { description: 'Curation changes, newest first.' })
  curationLog(@Args() { subjectType, subjectId, page, pageSize }: CurationLogArgs, @Ctx() ctx: RequestContext) {
    return this.services.curationLog.list(ctx, { subjectType, subjectId }, page, pageSize);
  }

  @FieldResolver(() => Int, { nullable: true })
  userId(@Root() entry: CurationLogEntry) {
    return entry.user?.id ?? null;
  }

  @FieldResolver(() => Int, { nullable: true })
  addonId(@Root() entry: CurationLogEntry) {
    return entry.addon?.id ?? null;
  }

  @FieldResolver(() => String, { nullable: true })
  details(@Root() entry: CurationLogEntry) {
    return entry.details === null ? null : JSON.stringify(entry.details);
  }
}
