import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { NESTED_ADDON } from '../catalogue/catalogue.summary.js';
import { AddonObjectType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import type { ShelvesServices } from './services.js';
import type { PrimaryShelfView } from './shelves.service.js';
import {
  ExternalAddonType,
  HeroShelvesType,
  PrimaryShelfInputType,
  PrimaryShelfType,
  SecondaryShelfInputType,
  SecondaryShelfType,
} from './shelves.types.js';
import { Requires, PUBLIC, anyOf, objectRule } from '../access/requirements.js';
import { Permission } from '../access/permissions.js';
import { listShelves } from './shelves.access.js';

const ALL = {
  defaultValue: false,
  description: 'Include disabled shelves (Admin:Curation; others get UNAUTHENTICATED or FORBIDDEN).',
};

@Resolver(() => PrimaryShelfType)
export class ShelvesResolver {
  constructor(private readonly services: ShelvesServices) {}

  @Requires(objectRule(listShelves))
  @Query(() => [PrimaryShelfType], {
    description:
      'Enabled primary hero shelves in position order; shelves whose add-on is not public (external ones: ' +
      'deleted or disabled) are left out.',
  })
  primaryShelves(@Ctx() ctx: RequestContext, @Arg('all', ALL) all: boolean) {
    return this.services.shelves.primaryShelves(ctx, all);
  }

  @Requires(objectRule(listShelves))
  @Query(() => [SecondaryShelfType], { description: 'Enabled secondary hero shelves in position order.' })
  secondaryShelves(@Ctx() ctx: RequestContext, @Arg('all', ALL) all: boolean) {
    return this.services.shelves.secondaryShelves(ctx, all);
  }

  @Requires(PUBLIC)
  @Query(() => HeroShelvesType, {
    description: 'One enabled primary and one enabled secondary shelf, chosen at random.',
  })
  async heroShelves(@Ctx() ctx: RequestContext): Promise<HeroShelvesType> {
    const [primary, secondary] = await Promise.all([
      this.services.shelves.randomPrimaryShelf(ctx),
      this.services.shelves.randomSecondaryShelf(ctx),
    ]);
    return { primary, secondary } as HeroShelvesType;
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => PrimaryShelfType)
  createPrimaryShelf(@Arg('input') input: PrimaryShelfInputType, @Ctx() ctx: RequestContext) {
    return this.services.shelves.createPrimaryShelf(ctx, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => PrimaryShelfType, { description: 'Edits, orders (`position`), enables or disables.' })
  updatePrimaryShelf(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: PrimaryShelfInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.shelves.updatePrimaryShelf(ctx, id, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => Boolean)
  deletePrimaryShelf(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.shelves.deletePrimaryShelf(ctx, id);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => SecondaryShelfType)
  createSecondaryShelf(@Arg('input') input: SecondaryShelfInputType, @Ctx() ctx: RequestContext) {
    return this.services.shelves.createSecondaryShelf(ctx, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => SecondaryShelfType, {
    description: 'Edits, orders (`position`), enables or disables.',
  })
  updateSecondaryShelf(
    @Arg('id', () => Int) id: number,
    @Arg('input') input: SecondaryShelfInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.shelves.updateSecondaryShelf(ctx, id, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => Boolean)
  deleteSecondaryShelf(@Arg('id', () => Int) id: number, @Ctx() ctx: RequestContext) {
    return this.services.shelves.deleteSecondaryShelf(ctx, id);
  }

  @FieldResolver(() => AddonObjectType, { nullable: true, description: `Null for external shelves. ${NESTED_ADDON}` })
  addon(@Root() shelf: PrimaryShelfView) {
    return shelf.isExternal ? null : shelf.addon;
  }

  @FieldResolver(() => ExternalAddonType, { nullable: true, description: 'Only for external shelves.' })
  externalAddon(@Root() shelf: PrimaryShelfView): ExternalAddonType | null {
    if (!shelf.isExternal) return null;
    const { id, guid, homepage, name, type, defaultLocale } = shelf.addon;
    return { id, guid, homepage, name, type, defaultLocale };
  }
}
