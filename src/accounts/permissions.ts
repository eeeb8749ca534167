import type { Permission } from '../auth/permissions.js';

/**
 * Permission rules are `app:action` strings; either part may be `*` (`*:*` is full admin).
 * Matching is case-sensitive, as in the original.
 */
export function ruleGrants(rule: string, required: string): boolean {
  const [ruleApp, ruleAction] = splitRule(rule);
  const [app, action] = splitRule(required);
  return (ruleApp === '*' || ruleApp === app) && (ruleAction === '*' || ruleAction === action);
}

export function hasPermission(rules: readonly string[], required: Permission): boolean {
  return rules.some((rule) => ruleGrants(rule, required));
}

export function isValidRule(rule: string): boolean {
  return /^(\*|[A-Za-z][A-Za-z0-9]*):(\*|[A-Za-z][A-Za-z0-9]*)$/.test(rule);
}

function splitRule(rule: string): [string, string] {
  const at = rule.indexOf(':');
  return at < 0 ? [rule, ''] : [rule.slice(0, at), rule.slice(at + 1)];
}
