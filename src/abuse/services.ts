import type { Platform } from '../core/module.js';
import type { AccountsServices } from '../accounts/services.js';
import type { CatalogueServices } from '../catalogue/services.js';
import { AbuseService } from './abuse.service.js';

/** The abuse module's services, from the platform and the modules it depends on. */
export function createAbuseServices(
  { config }: Platform,
  { accounts, catalogue }: { readonly accounts: AccountsServices; readonly catalogue: CatalogueServices },
) {
  return {
    abuse: new AbuseService(catalogue.catalogue, accounts.accounts, catalogue.lifecycle, {
      reportsPerDay: config.ABUSE_REPORTS_PER_DAY,
      reviewThreshold: config.ABUSE_REPORTS_REVIEW_THRESHOLD,
    }),
  };
}

export type AbuseServices = ReturnType<typeof createAbuseServices>;
