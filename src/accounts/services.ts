import type { Platform } from '../core/module.js';
import type { SiteServices } from '../site/services.js';
import { Hooks } from '../core/hooks.js';
import { AccountsService, type AccountHooks } from './accounts.service.js';
import { NotificationsService } from './notifications.service.js';
import { UnsubscribeCodes } from './unsubscribe-codes.js';

/** The accounts module's services, from the platform and the modules it depends on. */
export function createAccountsServices(
  { config, keyring, storage, images }: Platform,
  { site }: { readonly site: SiteServices },
) {
  /**
   * Provided by the modules above: what deleting an account reaches, the credentials of an account
   * (a test account's session, revoking them), where the email is edited.
   */
  const accountHooks = new Hooks<AccountHooks>('accounts');
  const accounts = new AccountsService(storage, {
    images,
    superCreateEnabled: config.SUPER_CREATE_ENABLED,
    developerAgreementChanged: config.DEVELOPER_AGREEMENT_CHANGED ?? null,
    hooks: accountHooks,
  });
  const unsubscribeCodes = new UnsubscribeCodes(keyring.signer('unsubscribe-links'));
  return {
    accounts,
    accountHooks,
    notifications: new NotificationsService(accounts, unsubscribeCodes),
    unsubscribeCodes,
    site: site.site,
    browserName: config.BROWSER_NAME,
  };
}

export type AccountsServices = ReturnType<typeof createAccountsServices>;
