import { readFileSync } from 'node:fs';
import { API_GATES, API_VERSIONS, GATES, gate, type Gate } from './gates.js';
import { unaligned, withGateTable } from './gates.docs.js';

describe('API gates table', () => {
  it('names only known gates, each once per version, each on somewhere', () => {
    for (const version of API_VERSIONS) {
      const names = API_GATES[version];
      expect(new Set(names).size).toBe(names.length);
      for (const name of names) expect(Object.keys(GATES)).toContain(name);
    }
    for (const name of Object.keys(GATES) as Gate[]) {
      expect(API_VERSIONS.some((version) => gate(version, name))).toBe(true);
    }
  });

  it('v5 keeps only the differences it shares with the original v5', () => {
    expect([...API_GATES.v5].sort()).toEqual([
      'addons-search-_score-field',
      'block-versions-list-shim',
      'ratings-score-filter',
    ]);
  });

  it("is the README's table (npm run docs:gates rewrites it)", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(unaligned(withGateTable(readme))).toBe(unaligned(readme));
  });
});
