import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { ApiKeyType } from '../accounts/scoped-keys.types.js';
import type { RequestContext } from '../core/context.js';
import { AddonObjectType } from './catalogue.types.js';
import type { CatalogueServices } from './services.js';

/** The add-ons an API key is limited to, as the caller may see them (the catalogue answers for add-ons). */
@Resolver(() => ApiKeyType)
export class ScopedKeyAddonsResolver {
  constructor(private readonly services: CatalogueServices) {}

  @FieldResolver(() => [AddonObjectType], {
    nullable: true,
    description: 'The add-ons of `scopeAddonIds` the caller may see; null: no add-on limit.',
  })
  async addons(@Root() key: ApiKeyType, @Ctx() ctx: RequestContext) {
    if (!key.scopeAddonIds) return null;
    const addons = await Promise.all(key.scopeAddonIds.map((id) => this.services.catalogue.visibleAddon(ctx, id)));
    return addons.filter((a) => a !== null);
  }
}
