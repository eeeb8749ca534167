import type { Platform } from '../core/module.js';
import type { AccountsServices } from '../accounts/services.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { collectionsOptions } from './collections.config.js';
import { CollectionsService } from './collections.service.js';
import { CollectionItemsService } from './collection-items.service.js';
import { CollectionAccess } from './collections.access.js';

/** The collections module's services, from the platform and the modules it depends on. */
export function createCollectionsServices(
  { config }: Platform,
  { accounts, catalogue }: { readonly accounts: AccountsServices; readonly catalogue: CatalogueServices },
) {
  const options = collectionsOptions(config);
  const access = new CollectionAccess(options);
  return {
    collections: new CollectionsService(access),
    /** The add-ons of collections. */
    collectionItems: new CollectionItemsService(catalogue.catalogue, access),
    /** The vendor account, whose collections curators manage. */
    vendorUsername: options.vendorUsername,
    /** A collection's author, as the caller may see them. */
    accounts: accounts.accounts,
  };
}

export type CollectionsServices = ReturnType<typeof createCollectionsServices>;
