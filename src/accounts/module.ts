import { defineModule } from '../core/module.js';
import { accountsMigrations } from './migrations/index.js';
import { accountsSettings } from './settings.js';
import { createAccountsServices } from './services.js';
import { siteModule } from '../site/module.js';
import { Group } from './group.entity.js';
import { UserNotification } from './notification.entity.js';
import { User } from './user.entity.js';
import { AccountsResolver } from './accounts.resolver.js';
import { UserSummaryResolver } from './accounts.summary.js';
import { UnsubscribeResolver } from './unsubscribe.resolver.js';

/** User accounts: profiles, pictures, notifications, deletion, the developer agreement. */
export const accountsModule = defineModule({
  name: 'accounts',
  dependsOn: [siteModule],
  settings: accountsSettings,
  entities: [User, Group, UserNotification],
  resolvers: [AccountsResolver, UserSummaryResolver, UnsubscribeResolver],
  migrations: accountsMigrations,
  services: createAccountsServices,
});

export type { AccountsServices } from './services.js';
