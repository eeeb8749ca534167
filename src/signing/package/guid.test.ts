import { compareAppVersions, simpleAppVersion } from '../../core/app-versions.js';
import { assertValidUrlGuid, isUrlGuidTooLong, isValidGuid } from './guid.js';

describe('isValidGuid', () => {
  it.each([
    '{12345678-1234-1234-1234-123456789abc}',
    '{ABCDEF01-ABCD-ABCD-ABCD-ABCDEF012345}',
    'addon@example.com',
    'Addon.Name-1_2@Example.COM',
    '@example',
  ])('accepts %j', (guid) => {
    expect(isValidGuid(guid)).toBe(true);
  });

  it.each([
    '',
    'addon',
    'addon@',
    'a b@example.com',
    'addon@exa mple.com',
    '12345678-1234-1234-1234-123456789abc',
    '{12345678-1234-1234-1234-123456789abz}',
    '{12345678-1234-1234-1234-123456789abc',
    'a@b@c',
    'addon@example.com\n',
    `${'a'.repeat(250)}@example.com`,
  ])('refuses %j', (guid) => {
    expect(isValidGuid(guid)).toBe(false);
  });
});

describe('URL guids', () => {
  it('are limited to 64 characters', () => {
    const guid = `${'a'.repeat(52)}@example.com`;
    expect(guid).toHaveLength(64);
    expect(isUrlGuidTooLong(guid)).toBe(false);
    expect(isUrlGuidTooLong(`a${guid}`)).toBe(true);
    expect(() => assertValidUrlGuid(guid)).not.toThrow();
    expect(() => assertValidUrlGuid(`a${guid}`)).toThrow(
      "Please specify your Add-on GUID in the manifest if it's longer than 64 characters.",
    );
    expect(() => assertValidUrlGuid('not a guid')).toThrow('Invalid Add-on ID in URL or package');
  });
});

describe('compareAppVersions', () => {
  it.each([
    ['42.0', '42', 0],
    ['42.0', '42.0.0', 0],
    ['41.9', '42.0', -1],
    ['42.0a1', '42.0', -1],
    ['42.0a1', '42.0b1', -1],
    ['42.0b2', '42.0b10', -1],
    ['47.*', '48.0', -1],
    ['48.*', '48.5', 1],
    ['1.0+', '1.1pre', 0],
    ['1.0+', '1.1', -1],
    ['10.0', '9.0', 1],
    ['', '42.0', -1],
  ])('%s vs %s is %d', (left, right, order) => {
    expect(compareAppVersions(left, right)).toBe(order);
    expect(compareAppVersions(right, left)).toBe(-order || 0);
  });

  it('reads comparison prefixes as the bare version', () => {
    expect(simpleAppVersion('>=42.0')).toBe('42.0');
  });
});
