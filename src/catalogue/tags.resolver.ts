import { Ctx, Query, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { PUBLIC, Requires } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import type { CatalogueServices } from './services.js';

/** The tag list (TagsService holds it). */
@Resolver()
export class TagsResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Query(() => [String], {
    description:
      'Every tag an add-on may carry, alphabetically (not paginated): the listing edit accepts these alone, ' +
      'and the search filter `tags` names them.',
  })
  addonTags(@Ctx() ctx: RequestContext) {
    return this.services.tags.list(ctx);
  }
}
