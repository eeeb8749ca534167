import type { DomainManifest } from '../core/domain.js';
import { Group } from './group.entity.js';
import { UserNotification } from './notification.entity.js';
import { User } from './user.entity.js';
import { AccountsResolver } from './accounts.resolver.js';
import { UserSummaryResolver } from './accounts.summary.js';
import { ScopedKeysResolver } from './scoped-keys.resolver.js';
import { UnsubscribeResolver } from './unsubscribe.resolver.js';

export const accountsManifest: DomainManifest = {
  name: 'accounts',
  entities: [User, Group, UserNotification],
  resolvers: [AccountsResolver, UserSummaryResolver, ScopedKeysResolver, UnsubscribeResolver],
};
