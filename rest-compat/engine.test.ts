import { buildAppSchema } from '../src/modules.js';
import { compileRoutes } from './engine.js';
import type { RouteDefinition } from './route.js';
import { routes } from './routes/index.js';

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

  it('compiles every document of the route table with graphql-jit (the server compiles each at its first request)', async () => {
    const schema = await buildAppSchema(null);
    const table = compileRoutes(schema, routes, { jit: 'eager' });
    const compiled = [...table.values()].flat();
    expect(compiled.length).toBeGreaterThanOrEqual(routes.length);
    for (const route of compiled) {
      expect(typeof route.run).toBe('function');
      if (route.definition.parts) expect(typeof route.parts?.skeleton).toBe('function');
    }
  });

  it('compiles a document with graphql-jit at its first run when asked to wait', async () => {
    const schema = await buildAppSchema(null);
    const [lazy] = compileRoutes(schema, [route('query Ok { __typename }')], { jit: 'lazy' }).get('v4')!;
    const [eager] = compileRoutes(schema, [route('query Ok { __typename }')]).get('v4')!;
    expect(lazy.run).not.toBe(eager.run);
    expect(await lazy.run({}, {})).toEqual({ data: { __typename: 'Query' } });
    expect(await lazy.run({}, {})).toEqual(await eager.run({}, {}));
  });

  it('compiles path variables', async () => {
    const schema = await buildAppSchema(null);
    const [compiled] = compileRoutes(schema, [route('query Ok { siteStatus { readOnly } }')]).get('v4')!;
    expect(compiled.paramNames).toEqual(['id']);
    expect(compiled.pattern.exec('/x/abc%40def/')?.[1]).toBe('abc%40def');
    expect(compiled.pattern.test('/x/a/b/')).toBe(false);
  });
});
