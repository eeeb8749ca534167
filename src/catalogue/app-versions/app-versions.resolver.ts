import { Arg, Ctx, Field, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { Accepts } from '../../access/credentials.js';
import { KeyOperation, KeyScope } from '../../access/key-scopes.js';
import { Permission } from '../../access/permissions.js';
import { PUBLIC, Requires, anyOf } from '../../access/requirements.js';
import type { RequestContext } from '../../core/context.js';
import type { CatalogueServices } from '../services.js';
import { App } from '../catalogue.enums.js';

@ObjectType('AppVersionRegistration', { description: 'What registering a browser version created.' })
export class AppVersionRegistrationType {
  @Field({ description: 'Whether any version was created (false: they all existed).' })
  created!: boolean;

  @Field(() => [String], { description: '`<application id>:<version>` of each version created.' })
  versions!: string[];
}

/** The browser versions add-ons may name: listed for anyone, registered by release automation. */
@Resolver()
export class AppVersionsResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Requires(PUBLIC)
  @Query(() => [String], {
    description: "An application's registered versions, oldest first (BAD_REQUEST for a retired application).",
  })
  appVersions(@Arg('application', () => App) application: App, @Ctx() ctx: RequestContext) {
    return this.services.appVersions.list(ctx, application);
  }

  @Accepts('jwt')
  @KeyScope(KeyOperation.ACCOUNT)
  @Requires(anyOf(Permission.APPVERSIONS_CREATE))
  @Mutation(() => AppVersionRegistrationType, {
    description:
      'Registers a new browser version (release automation, with an API key and AppVersions:Create): the ' +
      'version, its `<major>.<minor>` release and its `<major>.*`, for Firefox and Firefox for Android; ' +
      'existing ones are skipped. A retired application or a version that is not one is BAD_REQUEST.',
  })
  registerAppVersion(
    @Arg('application', () => App) application: App,
    @Arg('version') version: string,
    @Ctx() ctx: RequestContext,
  ) {
    return this.services.appVersions.register(ctx, application, version);
  }
}
