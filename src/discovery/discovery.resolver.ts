import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { NESTED_ADDON } from '../catalogue/catalogue.summary.js';
import { AddonObjectType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { DiscoveryServices } from './services.js';
import { DiscoveryEdition, type DiscoveryItemView } from './discovery.service.js';
import { DiscoveryItemInputType, DiscoveryItemType } from './discovery.types.js';
import { Requires, PUBLIC, anyOf } from '../access/requirements.js';
import { Permission } from '../access/permissions.js';

@Resolver(() => DiscoveryItemType)
export class DiscoveryResolver {
  constructor(private readonly services: DiscoveryServices) {}

  @Requires(PUBLIC)
  @Query(() => [DiscoveryItemType], {
    description:
      'The discovery pane in editorial order, public add-ons only. With a valid telemetry client id (sha256 ' +
      'as 64 hex digits; anything else is ignored), up to 4 extensions are replaced by recommendations ' +
      '(the count unchanged, themes never); not in the China edition.',
  })
  discoveryItems(
    @Ctx() ctx: RequestContext,
    @Arg('edition', () => DiscoveryEdition, { defaultValue: DiscoveryEdition.DEFAULT }) edition: DiscoveryEdition,
    @Arg('telemetryClientId', () => String, { nullable: true }) telemetryClientId?: string | null,
  ) {
    return this.services.discovery.items(ctx, edition, telemetryClientId);
  }

  @Requires(PUBLIC)
  @Query(() => [DiscoveryItemType], { description: 'Every discovery item with its editorial texts.' })
  discoveryEditorial(
    @Ctx() ctx: RequestContext,
    @Arg('recommended', { defaultValue: false, description: 'Only add-ons promoted as recommended.' })
    recommended: boolean,
  ) {
    return this.services.discovery.editorial(ctx, recommended);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => DiscoveryItemType)
  createDiscoveryItem(@Arg('input') input: DiscoveryItemInputType, @Ctx() ctx: RequestContext) {
    return this.services.discovery.create(ctx, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => DiscoveryItemType, { description: 'Edits texts and positions.' })
  updateDiscoveryItem(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: DiscoveryItemInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.discovery.update(ctx, id, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => Boolean)
  deleteDiscoveryItem(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.discovery.delete(ctx, id);
  }

  @FieldResolver(() => AddonObjectType, { description: NESTED_ADDON })
  addon(@Root() item: DiscoveryItemView) {
    return item.addon;
  }
}
