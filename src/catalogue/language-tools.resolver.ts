import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Accepts } from '../access/credentials.js';
import { PUBLIC, Requires } from '../access/requirements.js';
import type { RequestContext } from '../core/context.js';
import type { CatalogueServices } from './services.js';
import { AddonType as AddonTypes, App } from './catalogue.enums.js';
import { AddonObjectType } from './catalogue.types.js';

/** Language packs and dictionaries (LanguageToolsService holds the rules). */
@Resolver()
export class LanguageToolsResolver {
  constructor(private readonly services: CatalogueServices) {}

  @Requires(PUBLIC)
  @Accepts()
  @Query(() => [AddonObjectType], {
    description:
      'Every public language pack and dictionary for an application (not paginated). `appVersion` (with `type`) ' +
      'keeps the language packs with a public version compatible with it: read it as `currentVersion(app, appVersion)`.',
  })
  languageTools(
    @Arg('app', () => App) app: App,
    @Ctx() ctx: RequestContext,
    @Arg('type', () => AddonTypes, { nullable: true }) type?: AddonTypes | null,
    @Arg('appVersion', () => String, { nullable: true }) appVersion?: string | null,
    @Arg('authors', () => [String], { nullable: true, description: 'Listed authors’ usernames (any one).' })
    authors?: string[] | null,
  ) {
    return this.services.languageTools.list(ctx, { app, type, appVersion, authors });
  }
}
