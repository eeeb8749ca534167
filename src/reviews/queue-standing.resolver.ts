import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { VersionRecord } from '../catalogue/catalogue.records.js';
import { VersionType } from '../catalogue/catalogue.types.js';
import { isReviewerOrAuthor } from '../catalogue/version-access.js';
import type { RequestContext } from '../core/context.js';
import { queueStanding } from './queue-standing.js';
import { QueueStandingType } from './reviews.types.js';

/** A version's standing in the reviewer queue, for its add-on's authors and the channel's reviewers. */
@Resolver(() => VersionType)
export class QueueStandingResolver {
  @FieldResolver(() => QueueStandingType, {
    nullable: true,
    description:
      "Where the version stands in its channel's review queue and when its review may come; null when it is not " +
      'waiting for a human, or for callers who are neither an author of the add-on nor a reviewer of the channel.',
  })
  async queueStanding(@Root() version: VersionRecord, @Ctx() ctx: RequestContext) {
    if (!(await isReviewerOrAuthor(ctx, version.addon.id, version.channel))) return null;
    return queueStanding(ctx.em, version.id);
  }
}
