import { Arg, Args, ArgsType, Ctx, Field, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { NESTED_USER, UserSummaryType } from '../accounts/accounts.summary.js';
import { UserType } from '../accounts/accounts.types.js';
import { NESTED_ADDON } from '../catalogue/catalogue.summary.js';
import { AddonObjectType } from '../catalogue/catalogue.types.js';
import type { RequestContext } from '../core/context.js';
import { TranslatedInputScalar } from '../graphql/scalars.js';
import type { CollectionsServices } from './services.js';
import { addonCountByCollectionId, collectionAuthorById } from './collections.loaders.js';
import type { CollectionAddonRecord, CollectionRecord } from './collections.records.js';
import {
  CollectionAddonPageType,
  CollectionAddonType,
  CollectionInputType,
  CollectionPageType,
  CollectionType,
} from './collections.types.js';
import { collectionUrl } from './collections.urls.js';
import { Requires, SIGN_IN, objectRule } from '../access/requirements.js';
import {
  createCollection,
  editCollection,
  listCollections,
  manageCollectionAddons,
  readCollection,
} from './collections.access.js';

const USER = { description: "The author's id (all digits) or username." };
const ADDON = { description: 'Add-on id or slug.' };
const FILTER = {
  nullable: true,
  description: '`all` (any but deleted add-ons), `all_with_deleted`; otherwise public add-ons only.',
};

@ArgsType()
class UserArgs {
  @Field(USER)
  user!: string;
}

@ArgsType()
class CollectionArgs extends UserArgs {
  @Field()
  slug!: string;
}

@ArgsType()
class CollectionAddonArgs extends CollectionArgs {
  @Field(ADDON)
  addon!: string;
}

@ArgsType()
class CollectionListArgs extends UserArgs {
  @Field(() => Int, { nullable: true, description: '1-based page number (default 1).' })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: 'Items per page: default 25, at most 50.' })
  pageSize?: number | null;
}

@ArgsType()
class CollectionAddonListArgs extends CollectionArgs {
  @Field(() => String, FILTER)
  filter?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'One of `added`, `popularity`, `name` (request language), `-` first for descending. Default `-popularity`.',
  })
  sort?: string | null;

  @Field(() => Int, { nullable: true, description: '1-based page number (default 1).' })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: 'Items per page: default 25, at most 50.' })
  pageSize?: number | null;
}

@Resolver(() => CollectionType)
export class CollectionsResolver {
  constructor(private readonly services: CollectionsServices) {}

  @Requires(SIGN_IN, objectRule(listCollections))
  @Query(() => CollectionPageType, {
    description: "A user's collections, most recently updated first.",
  })
  collections(@Args() { user, page, pageSize }: CollectionListArgs, @Ctx() ctx: RequestContext) {
    return this.services.collections.list(ctx, user, page, pageSize);
  }

  @Requires(objectRule(readCollection))
  @Query(() => CollectionType, { description: 'A collection by author and slug.' })
  collection(@Args() { user, slug }: CollectionArgs, @Ctx() ctx: RequestContext) {
    return this.services.collections.get(ctx, user, slug);
  }

  @Requires(SIGN_IN, objectRule(createCollection))
  @Mutation(() => CollectionType, { description: 'A new collection of the caller (`user` is the caller).' })
  createCollection(
    @Arg('user', USER) user: string,
    @Arg('input') input: CollectionInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.collections.create(ctx, user, input);
  }

  @Requires(SIGN_IN, objectRule(editCollection, { note: ", or a curator of the vendor's collections" }))
  @Mutation(() => CollectionType)
  updateCollection(
    @Args() { user, slug }: CollectionArgs,
    @Arg('input') input: CollectionInputType,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.collections.update(ctx, user, slug, input);
  }

  @Requires(SIGN_IN, objectRule(editCollection))
  @Mutation(() => Boolean, { description: 'Deletes the collection and its add-on list.' })
  deleteCollection(@Args() { user, slug }: CollectionArgs, @Ctx() ctx: RequestContext) {
    return this.services.collections.delete(ctx, user, slug);
  }

  @FieldResolver(() => UserType, { nullable: true, description: `The author. ${NESTED_USER}` })
  async author(@Root() collection: CollectionRecord, @Ctx() ctx: RequestContext) {
    const author = await ctx.loaders.get(collectionAuthorById).load(collection.author.id);
    return this.services.accounts.visibleUser(ctx, author);
  }

  @FieldResolver(() => UserSummaryType, { description: "The author's public minimum (id, names, profile URL)." })
  authorSummary(@Root() collection: CollectionRecord, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(collectionAuthorById).load(collection.author.id);
  }

  @FieldResolver(() => Int, { description: 'Add-ons in the collection, whatever their status.' })
  addonCount(@Root() collection: CollectionRecord, @Ctx() ctx: RequestContext) {
    return ctx.loaders.get(addonCountByCollectionId).load(collection.id);
  }

  @FieldResolver(() => String, { description: 'The collection page on the website.' })
  url(@Root() collection: CollectionRecord, @Ctx() ctx: RequestContext) {
    return collectionUrl(ctx.request.baseUrl, collection);
  }

  @FieldResolver(() => [CollectionAddonType], {
    description: 'The first 25 add-ons in the default order (popularity, descending).',
  })
  addons(
    @Root() collection: CollectionRecord,
    @Ctx() ctx: RequestContext,
    @Arg('filter', () => String, FILTER) filter?: string | null,
  ) {
    return this.services.collectionItems.firstItems(ctx, collection, filter);
  }
}

@Resolver(() => CollectionAddonType)
export class CollectionAddonsResolver {
  constructor(private readonly services: CollectionsServices) {}

  @Requires(objectRule(readCollection))
  @Query(() => CollectionAddonPageType, {
    description: "A collection's add-ons.",
  })
  collectionAddons(
    @Args() { user, slug, filter, sort, page, pageSize }: CollectionAddonListArgs,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.collectionItems.listItems(ctx, user, slug, filter, sort, page, pageSize);
  }

  @Requires(objectRule(readCollection))
  @Query(() => CollectionAddonType, { description: 'One add-on of a collection, whatever its status.' })
  collectionAddon(@Args() { user, slug, addon }: CollectionAddonArgs, @Ctx() ctx: RequestContext) {
    return this.services.collectionItems.getItem(ctx, user, slug, addon);
  }

  @Requires(objectRule(manageCollectionAddons))
  @Mutation(() => CollectionAddonType, { description: 'Adds a public add-on to the collection.' })
  addCollectionAddon(
    @Args() { user, slug }: CollectionArgs,
    @Ctx() ctx: RequestContext,
    @Arg('addon', () => String, { nullable: true, ...ADDON }) addon?: string | null,
    @Arg('notes', () => TranslatedInputScalar, { nullable: true }) notes?: unknown,
  ) {
    return this.services.collectionItems.addItem(ctx, user, slug, addon, notes);
  }

  @Requires(objectRule(manageCollectionAddons))
  @Mutation(() => CollectionAddonType, { description: "Changes the collector's notes." })
  updateCollectionAddon(
    @Args() { user, slug, addon }: CollectionAddonArgs,
    @Ctx() ctx: RequestContext,
    @Arg('notes', () => TranslatedInputScalar, { nullable: true }) notes?: unknown,
  ) {
    return this.services.collectionItems.updateItem(ctx, user, slug, addon, notes);
  }

  @Requires(objectRule(manageCollectionAddons))
  @Mutation(() => Boolean)
  removeCollectionAddon(@Args() { user, slug, addon }: CollectionAddonArgs, @Ctx() ctx: RequestContext) {
    return this.services.collectionItems.removeItem(ctx, user, slug, addon);
  }

  @FieldResolver(() => AddonObjectType, {
    nullable: true,
    description: `${NESTED_ADDON} (The REST answers show it whatever its status, as the original did.)`,
  })
  addon(@Root() item: CollectionAddonRecord, @Ctx() ctx: RequestContext) {
    return this.services.collectionItems.itemAddon(ctx, item);
  }
}
