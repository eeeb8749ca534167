import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { Accepts } from '../../access/credentials.js';
import { Permission } from '../../access/permissions.js';
import { PUBLIC, Requires, anyOf } from '../../access/requirements.js';
import type { RequestContext } from '../../core/context.js';
import { PageArgs } from '../../graphql/pagination.js';
import type { DiscoveryServices } from '../services.js';
import { ReplacementAddonPageType, ReplacementAddonType } from './replacements.types.js';

/** Replacement add-ons (ReplacementsService holds the rules). */
@Resolver(() => ReplacementAddonType)
export class ReplacementsResolver {
  constructor(private readonly services: DiscoveryServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Query(() => ReplacementAddonPageType, { description: 'Every replacement add-on, oldest first.' })
  replacementAddons(@Args() { page, pageSize }: PageArgs, @Ctx() ctx: RequestContext) {
    return this.services.replacements.list(ctx, page, pageSize);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => ReplacementAddonType, {
    description:
      'Sets what replaces an add-on id: a path of this site (`/addon/<slug>/`, `/collections/<user>/<slug>/`) ' +
      'or an http(s) URL elsewhere. Logged in the curation log.',
  })
  setReplacementAddon(@Arg('guid') guid: string, @Arg('path') path: string, @Ctx() ctx: RequestContext) {
    return this.services.replacements.set(ctx, guid, path);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => Boolean, { description: 'Removes the replacement of an add-on id. Logged in the curation log.' })
  deleteReplacementAddon(@Arg('guid') guid: string, @Ctx() ctx: RequestContext) {
    return this.services.replacements.remove(ctx, guid);
  }
}
