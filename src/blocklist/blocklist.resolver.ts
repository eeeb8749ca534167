import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { anyOf, PUBLIC, Requires } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import { PageArgs } from '../graphql/pagination.js';
import type { BlocklistServices } from './services.js';
import { BLOCKLIST_ADMIN_PERMISSIONS } from './blocklist.service.js';
import { BlockInput, BlockPageType, BlocklistRecordType, BlockType } from './blocklist.types.js';

/** The blocklist (BlocklistService holds the rules, BlocklistPublisher the publication). */
@Resolver(() => BlockType)
export class BlocklistResolver {
  constructor(private readonly services: BlocklistServices) {}

  @Requires(PUBLIC)
  @Query(() => BlockType, { description: 'A block, by id or add-on id (guid).' })
  block(@Arg('idOrGuid') idOrGuid: string, @Ctx() ctx: RequestContext) {
    return this.services.blocklist.get(ctx, idOrGuid);
  }

  @Requires(anyOf(...BLOCKLIST_ADMIN_PERMISSIONS))
  @Query(() => BlockPageType, { description: 'Every block, the most recently changed first.' })
  blocks(@Args() { page, pageSize }: PageArgs, @Ctx() ctx: RequestContext) {
    return this.services.blocklist.list(ctx, page, pageSize);
  }

  @Requires(anyOf(...BLOCKLIST_ADMIN_PERMISSIONS))
  @Mutation(() => BlockType, {
    description:
      "Blocks an add-on id for a range of versions (one block per add-on id). Recorded in the add-on's audit " +
      'log; the blocklist is published again.',
  })
  createBlock(@Arg('input') input: BlockInput, @Ctx() ctx: RequestContext) {
    return this.services.blocklist.create(ctx, { ...input });
  }

  @Requires(anyOf(...BLOCKLIST_ADMIN_PERMISSIONS))
  @Mutation(() => BlockType, { description: "Changes a block's range, kind, reason or URL." })
  updateBlock(@Arg('id', () => Int) id: number, @Arg('input') input: BlockInput, @Ctx() ctx: RequestContext) {
    return this.services.blocklist.update(ctx, id, { ...input });
  }

  @Requires(anyOf(...BLOCKLIST_ADMIN_PERMISSIONS))
  @Mutation(() => Boolean, { description: 'Removes a block (every version is unblocked). False when there is none.' })
  deleteBlock(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.blocklist.delete(ctx, id);
  }

  @Requires(anyOf(...BLOCKLIST_ADMIN_PERMISSIONS))
  @Mutation(() => Boolean, {
    description: 'Queues a publication of the blocklist; `rebuild` publishes new base filters instead of a stash.',
  })
  publishBlocklist(
    @Ctx() ctx: RequestContext,
    @Arg('rebuild', () => Boolean, { nullable: true }) rebuild?: boolean | null,
  ) {
    return this.services.blocklist.queuePublication(ctx, rebuild ?? false);
  }

  @Requires(PUBLIC)
  @Query(() => [BlocklistRecordType], {
    description: 'The published blocklist as browsers read it (also served at /v1/buckets/blocklists/…).',
  })
  blocklistRecords(@Ctx() ctx: RequestContext) {
    return this.services.blocklistPublisher.recordsForGraphql(ctx.em);
  }
}
