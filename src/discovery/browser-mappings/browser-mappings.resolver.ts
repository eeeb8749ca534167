import { Arg, Args, ArgsType, Ctx, Field, Int, Mutation, Query, Resolver } from 'type-graphql';
import { Accepts } from '../../access/credentials.js';
import { Permission } from '../../access/permissions.js';
import { PUBLIC, Requires, anyOf } from '../../access/requirements.js';
import type { RequestContext } from '../../core/context.js';
import type { DiscoveryServices } from '../services.js';
import { Browser } from './browser-mapping.entity.js';
import { BrowserMappingInputType, BrowserMappingPageType, BrowserMappingType } from './browser-mappings.types.js';

@ArgsType()
class BrowserMappingsArgs {
  @Field(() => Browser)
  browser!: Browser;

  @Field(() => Int, { nullable: true, description: '1-based page number (default 1).' })
  page?: number | null;

  @Field(() => Int, { nullable: true, description: 'Items per page: default 100, at most 100.' })
  pageSize?: number | null;
}

/** Browser mappings (BrowserMappingsService holds the rules). */
@Resolver(() => BrowserMappingType)
export class BrowserMappingsResolver {
  constructor(private readonly services: DiscoveryServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Query(() => BrowserMappingPageType, {
    description: "Extensions of another browser mapped to public add-ons (the browser's import of them).",
  })
  browserMappings(@Args() { browser, page, pageSize }: BrowserMappingsArgs, @Ctx() ctx: RequestContext) {
    return this.services.browserMappings.list(ctx, browser, page, pageSize);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => BrowserMappingType, {
    description: 'Maps an extension of another browser to an add-on (or to another one). Logged in the curation log.',
  })
  setBrowserMapping(@Arg('input') input: BrowserMappingInputType, @Ctx() ctx: RequestContext) {
    return this.services.browserMappings.set(ctx, input);
  }

  @Requires(anyOf(Permission.ADMIN_CURATION))
  @Mutation(() => Boolean, { description: 'Removes the mapping of an extension. Logged in the curation log.' })
  deleteBrowserMapping(
    @Arg('browser', () => Browser) browser: Browser,
    @Arg('extensionId') extensionId: string,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.browserMappings.remove(ctx, browser, extensionId);
  }
}
