import { hasPermission, isValidRule, ruleGrants } from './permissions.js';

describe('permission rules', () => {
  it('match exactly or through * wildcards on either side', () => {
    expect(ruleGrants('Addons:Review', 'Addons:Review')).toBe(true);
    expect(ruleGrants('Addons:*', 'Addons:Edit')).toBe(true);
    expect(ruleGrants('*:Review', 'Addons:Review')).toBe(true);
    expect(ruleGrants('*:*', 'Users:Edit')).toBe(true);
    expect(ruleGrants('Addons:Review', 'Addons:ReviewUnlisted')).toBe(false);
    expect(ruleGrants('Addons:*', 'Users:Edit')).toBe(false);
    expect(ruleGrants('addons:review', 'Addons:Review')).toBe(false);
  });

  it('are granted if any rule matches', () => {
    expect(hasPermission(['Users:Edit', 'Addons:*'], 'Addons:Edit')).toBe(true);
    expect(hasPermission([], 'Addons:Edit')).toBe(false);
  });

  it('must have the form app:action', () => {
    expect(isValidRule('Addons:Review')).toBe(true);
    expect(isValidRule('*:*')).toBe(true);
    for (const bad of ['Addons', 'Addons:', ':Review', 'a:b:c', 'Add ons:Review']) expect(isValidRule(bad)).toBe(false);
  });
});
