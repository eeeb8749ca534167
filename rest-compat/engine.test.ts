import { buildAppSchema } from '../src/graphql/schema.js';
import { compileRoutes } from './engine.js';
import type { RouteDefinition } from './route.js';

const route = (document: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
  method: 'GET',
  path: '/x/<id>/',
  versions: ['v3', 'v4'],
  document,
  ...extra,
});

describe('compileRoutes', () => {
  it('validates every document against the schema once, at boot', async () => {
    const schema = await buildAppSchema(null);
    expect(compileRoutes(schema, [route('query Ok { siteStatus { readOnly } }')]).get('v3')).toHaveLength(1);
    expect(() => compileRoutes(schema, [route('query Bad { siteStatus { nope } }')])).toThrow(
      /GET \/x\/<id>\/ \(v3, v4\): Cannot query field "nope"/,
    );
    expect(() => compileRoutes(schema, [route('query { siteStatus { readOnly } }')])).toThrow(/one named operation/);
    expect(() => compileRoutes(schema, [route('query A { siteStatus { readOnly ')])).toThrow(/Syntax Error/);
    expect(() =>
      compileRoutes(schema, [route('query A { siteStatus { readOnly } }'), route('query B { siteStatus { notice } }')]),
    ).toThrow(/declared twice/);
  });

  it('compiles path variables', async () => {
    const schema = await buildAppSchema(null);
    const [compiled] = compileRoutes(schema, [route('query Ok { siteStatus { readOnly } }')]).get('v4')!;
    expect(compiled.paramNames).toEqual(['id']);
    expect(compiled.pattern.exec('/x/abc%40def/')?.[1]).toBe('abc%40def');
    expect(compiled.pattern.test('/x/a/b/')).toBe(false);
  });
});
