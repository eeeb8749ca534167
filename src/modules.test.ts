import { accountStatsByUserId } from './accounts/accounts.loaders.js';
import type { RequestContext } from './core/context.js';
import { defineLoaderPort } from './core/loaders.js';
import type { Platform } from './core/module.js';
import { defineModule } from './core/module.js';
import { Hooks } from './core/hooks.js';
import type { EventSubscriber } from './events/domain-events.js';
import { composeModules, modules, queuesOf } from './modules.js';

/** The platform parts the composition itself touches: the event bus its subscribers join. */
function platformWithBus(): { platform: Platform; subscribed: string[] } {
  const subscribed: string[] = [];
  const events = { subscribe: (subscriber: EventSubscriber<object>) => subscribed.push(subscriber.name) };
  return { platform: { events } as unknown as Platform, subscribed };
}

class LowResolver {}
class HighResolver {}

const low = defineModule({
  name: 'low',
  dependsOn: [],
  entities: [],
  resolvers: [LowResolver],
  services: () => ({ counter: { value: 1 }, steps: new Hooks<{ done: () => string }>('low') }),
});
const high = defineModule({
  name: 'high',
  dependsOn: [low],
  entities: [],
  resolvers: [HighResolver],
  services: (_platform, { low: below }) => {
    below.steps.provide({ done: () => 'provided by high' });
    return { doubled: below.counter.value * 2 };
  },
  subscribers: () => [{ name: 'high-listens', on: [], handle: async () => {} }],
});

describe('composeModules', () => {
  it('builds each module from the services of those it depends on, in order, and wires its subscribers', () => {
    const { platform, subscribed } = platformWithBus();
    const composition = composeModules(platform, [low, high]);
    expect(composition.services).toMatchObject({ doubled: 2, counter: { value: 1 } });
    expect(subscribed).toEqual(['high-listens']);
    // A step the module above provides is what the module below runs.
    expect((composition.services as unknown as { steps: Hooks<{ done: () => string }> }).steps.steps.done?.()).toBe(
      'provided by high',
    );
  });

  it("builds each resolver with its own module's services only", () => {
    const composition = composeModules(platformWithBus().platform, [low, high]);
    expect(composition.servicesOf(LowResolver)).toHaveProperty('counter');
    expect(composition.servicesOf(LowResolver)).not.toHaveProperty('doubled');
    expect(composition.servicesOf(HighResolver)).toEqual({ doubled: 2 });
    expect(composition.servicesOf(class Unlisted {})).toBeUndefined();
  });

  it('refuses a module listed before a module it depends on', () => {
    expect(() => composeModules(platformWithBus().platform, [high, low])).toThrow(
      'module high depends on low, which is not listed before it',
    );
  });

  it('refuses two modules offering different services under one name', () => {
    const other = defineModule({
      name: 'other',
      dependsOn: [],
      entities: [],
      resolvers: [],
      services: () => ({ counter: { value: 2 } }),
    });
    expect(() => composeModules(platformWithBus().platform, [low, other])).toThrow(
      'module other: services.counter is another module',
    );
  });

  it('refuses one job declared by two modules', () => {
    const job = { queue: { retryLimit: 1 }, handle: () => async () => {} };
    const first = defineModule({ ...low, name: 'first', jobs: { 'rating-mail': job } });
    const second = defineModule({ ...low, name: 'second', jobs: { 'rating-mail': job } });
    expect(queuesOf([first])).toMatchObject({ 'rating-mail': { retryLimit: 1 }, 'domain-event': {} });
    expect(() => queuesOf([first, second])).toThrow('module second: job rating-mail is declared twice');
  });

  it('refuses a step provided twice', () => {
    const hooks = new Hooks<{ done: () => string }>('low');
    hooks.provide({ done: () => 'one' });
    expect(() => hooks.provide({ done: () => 'two' })).toThrow('low: done is provided twice');
  });

  it('lists every module after the modules it depends on', () => {
    const seen = new Set<string>();
    for (const module of modules) {
      for (const dependency of module.dependsOn)
        expect([module.name, seen.has(dependency.name)]).toEqual([module.name, true]);
      seen.add(module.name);
    }
  });
});

describe('defineLoaderPort', () => {
  it('runs the implementation a higher module gives it, and refuses a second one', async () => {
    const port = defineLoaderPort<number, string>('example');
    const ctx = {} as RequestContext;
    expect(() => port.batch(ctx, [1])).toThrow('loader example is declared but not implemented');
    const batch = async (_ctx: RequestContext, keys: readonly number[]) => keys.map((key) => `#${key}`);
    port.implement(batch);
    port.implement(batch);
    expect(await port.batch(ctx, [1, 2])).toEqual(['#1', '#2']);
    expect(() => port.implement(async () => [])).toThrow('loader example is implemented twice');
  });

  it("has accounts' statistics computed by the catalogue once the modules are loaded", () => {
    expect(() => accountStatsByUserId.implement(async () => [])).toThrow(
      'loader accountStatsByUserId is implemented twice',
    );
  });
});
