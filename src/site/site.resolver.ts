import { Arg, Ctx, Field, InputType, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../core/context.js';
import type { SiteServices } from './services.js';
import { Requires, PUBLIC, anyOf } from '../access/requirements.js';
import { Permission } from '../access/permissions.js';

@ObjectType('SiteStatus', { description: 'Maintenance state of the site.' })
export class SiteStatusType {
  @Field({ description: 'While true, every write (REST POST/PUT/PATCH/DELETE, GraphQL mutation) answers 503.' })
  readOnly!: boolean;

  @Field(() => String, { nullable: true, description: 'A site-wide notice that front-ends must display.' })
  notice!: string | null;
}

@InputType()
export class UpdateSiteStatusInput {
  @Field({ nullable: true })
  readOnly?: boolean;

  @Field(() => String, { nullable: true, description: 'An empty string clears the notice.' })
  notice?: string | null;
}

@Resolver()
export class SiteResolver {
  constructor(private readonly services: SiteServices) {}

  @Requires(PUBLIC)
  @Query(() => SiteStatusType)
  siteStatus(@Ctx() ctx: RequestContext) {
    return this.services.site.status(ctx.em);
  }

  @Requires(anyOf(Permission.ADMIN_ADVANCED))
  @Mutation(() => SiteStatusType, {
    description: 'Allowed in read-only mode, so that it can be turned off.',
  })
  updateSiteStatus(@Arg('input') input: UpdateSiteStatusInput, @Ctx() ctx: RequestContext) {
    return this.services.site.updateAs(ctx, input);
  }
}
