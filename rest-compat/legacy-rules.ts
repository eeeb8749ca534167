import type { LegacyRules } from '../src/core/context.js';
import { gate, type ApiVersion, type Gate } from './gates.js';

/** Which gate switches on which of the domain's older rules (see LegacyRules in src/core/context.ts). */
const LEGACY_RULE_GATES: Readonly<Record<keyof LegacyRules, Gate>> = {
  usernameEditable: 'accounts-username-editable',
  deletionAnonymises: 'accounts-delete-anonymises',
  retiredNotificationTypes: 'accounts-legacy-notifications',
  collectionEditorsActOnAny: 'collections-editors-act-on-any',
};

const BY_VERSION = new Map<ApiVersion, LegacyRules | undefined>();

/** The older rules a REST version's requests run under (undefined: none, today's rules). */
export function legacyRules(version: ApiVersion): LegacyRules | undefined {
  if (!BY_VERSION.has(version)) {
    const on = Object.entries(LEGACY_RULE_GATES).filter(([, name]) => gate(version, name));
    BY_VERSION.set(
      version,
      on.length ? Object.freeze(Object.fromEntries(on.map(([rule]) => [rule, true]))) : undefined,
    );
  }
  return BY_VERSION.get(version);
}
