import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { NESTED_ADDON } from '../catalogue/catalogue.summary.js';
import { AddonObjectType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { ShelvesServices } from './services.js';
import { Requires, anyOf, objectRule } from '../access/requirements.js';
import { Permission } from '../access/permissions.js';
import type { HomeShelfView } from './home-shelves.service.js';
import { HomeShelfInputType, HomeShelfType } from './home-shelves.types.js';
import { listShelves } from './shelves.access.js';

@Resolver(() => HomeShelfType)
export class HomeShelvesResolver {
  constructor(private readonly services: ShelvesServices) {}

  @Requires(objectRule(listShelves))
  @Query(() => [HomeShelfType], { description: 'Enabled home page shelves in position order.' })
  homeShelves(
    @Ctx() ctx: RequestContext,
    @Arg('all', { defaultValue: false, description: 'Include disabled shelves (Admin:Curation).' }) all: boolean,
  ) {
    return this.services.homeShelves.shelves(ctx, all);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => HomeShelfType)
  createHomeShelf(@Arg('input') input: HomeShelfInputType, @Ctx() ctx: RequestContext) {
    return this.services.homeShelves.create(ctx, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => HomeShelfType, { description: 'Edits, orders (`position`), enables or disables.' })
  updateHomeShelf(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: HomeShelfInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.homeShelves.update(ctx, id, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => Boolean)
  deleteHomeShelf(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.homeShelves.delete(ctx, id);
  }

  @FieldResolver(() => [AddonObjectType], {
    description: `The public add-ons its search or collection lists now, \`shownCount\` at most. ${NESTED_ADDON}`,
  })
  addons(@Root() shelf: HomeShelfView, @Ctx() ctx: RequestContext) {
    return this.services.homeShelves.addons(ctx, shelf);
  }
}
