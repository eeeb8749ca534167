import type { GraphQLObjectType } from 'graphql';
import { Permission } from '../src/access/permissions.js';
import {
  PUBLIC,
  SECOND_FACTOR,
  SIGN_IN,
  anyOf,
  describeRequirement,
  fieldRequirement,
  objectRule,
  requirement,
} from '../src/access/requirements.js';
import { buildAppSchema } from '../src/modules.js';
import { defineObjectRule, definedObjectRules, runAudited } from '../src/access/object-rules.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { call, caller, type Caller } from './helpers/ratings.js';

/**
 * Issue 26: each query and mutation declares what it requires of its caller (`@Requires`, beside
 * `@Accepts`); sign-in and permissions are checked once, before the resolver, for both APIs.
 */

const authorOrReviewer = defineObjectRule(
  'test.authorOrReviewer',
  'signed in; author of the add-on or a reviewer',
  () => {},
);
const anOwner = defineObjectRule('test.anOwner', 'an owner', () => {});

describe('@Requires declarations', () => {
  it('are made by every root query and mutation, and stated in its description', async () => {
    const schema = await buildAppSchema(null);
    const missing: string[] = [];
    let count = 0;
    for (const type of [schema.getQueryType(), schema.getMutationType()] as GraphQLObjectType[]) {
      for (const field of Object.values(type.getFields())) {
        count++;
        const declared = fieldRequirement(field);
        if (!declared) missing.push(`${type.name}.${field.name}`);
        else expect(field.description?.split('\n').at(-1)).toBe(describeRequirement(declared));
      }
    }
    expect(missing).toEqual([]);
    expect(count).toBeGreaterThan(90);
  });

  it('combine into one requirement, described in one line', () => {
    expect(describeRequirement(requirement([PUBLIC]))).toBe('Requires: nothing (public).');
    expect(describeRequirement(requirement([SIGN_IN]))).toBe('Requires: sign-in.');
    expect(describeRequirement(requirement([anyOf(Permission.REVIEWS_ADMIN, Permission.ADDONS_EDIT)]))).toBe(
      'Requires: sign-in; one of Reviews:Admin, Addons:Edit.',
    );
    expect(describeRequirement(requirement([SIGN_IN, objectRule(authorOrReviewer)]))).toBe(
      'Requires: sign-in; author of the add-on or a reviewer (object rule).',
    );
    expect(requirement([SIGN_IN, objectRule(anOwner)])).toEqual({
      signIn: true,
      anyOf: [],
      rule: 'an owner',
      rules: [anOwner],
      conditional: [],
      secondFactor: false,
    });
    expect(requirement([SIGN_IN, objectRule(anOwner, { when: 'for isDisabled' })])).toMatchObject({
      rule: 'an owner for isDisabled',
      rules: [],
      conditional: [anOwner],
    });
    // Only rule values: text would be a rule nothing enforces.
    expect(() => objectRule('an owner' as never)).toThrow('objectRule takes a rule made by defineObjectRule');
    expect(requirement([SECOND_FACTOR, SIGN_IN]).secondFactor).toBe(true);
    expect(() => requirement([])).toThrow();
    expect(() => requirement([PUBLIC, SIGN_IN])).toThrow();
  });
});

describe('@Requires enforcement', () => {
  let t: TestApp;
  let reviewer: Caller;
  let user: Caller;

  beforeAll(async () => {
    t = await startTestApp({ env: { JOB_WORKERS: 'false' } });
    reviewer = await caller(t, { permission: ['Addons:Review'] });
    user = await caller(t);
  }, 120_000);
  afterAll(() => t?.close());

  const gql = (who: Caller | null, query: string) => {
    const req = t.http.post('/graphql');
    if (who) req.set('Authorization', `Bearer ${who.token}`);
    return req.send({ query });
  };

  it('refuses anonymous callers (401) and callers without the permission (403) through GraphQL', async () => {
    // cannedResponses declares anyOf(reviewer permissions); its service no longer checks them.
    const anonymous = await gql(null, '{ cannedResponses { id } }');
    expect(anonymous.body.errors[0]).toMatchObject({
      message: 'Authentication credentials were not provided.',
      extensions: { code: 'UNAUTHENTICATED' },
    });
    const forbidden = await gql(user, '{ cannedResponses { id } }');
    expect(forbidden.body.errors[0]).toMatchObject({
      message: 'You do not have permission to perform this action.',
      extensions: { code: 'FORBIDDEN' },
    });
    const allowed = await gql(reviewer, '{ cannedResponses { id } }');
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data.cannedResponses.length).toBeGreaterThan(0);
    // Users:Edit (users) and Reviews:Admin (updateAddonReviewerFlags) are refused before any lookup.
    expect((await gql(user, '{ users { count } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const flags = 'mutation { updateAddonReviewerFlags(addon: "no-such-addon", flags: {}) { needsAdminCodeReview } }';
    expect((await gql(reviewer, flags)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('refuses them through a REST route compiled on the same schema', async () => {
    const path = '/api/v4/reviewers/canned-responses/';
    const anonymous = await call(t, 'get', path, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const forbidden = await call(t, 'get', path, user);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await call(t, 'get', path, reviewer)).status).toBe(200);
  });
});

describe('object rules', () => {
  it('are rule values of the access modules, each defined once, whose descriptions the schema states', async () => {
    const schema = await buildAppSchema(null);
    const defined = new Set(definedObjectRules());
    const prose: string[] = [];
    let declared = 0;
    for (const type of [schema.getQueryType(), schema.getMutationType()] as GraphQLObjectType[]) {
      for (const field of Object.values(type.getFields())) {
        const req = fieldRequirement(field);
        if (!req?.rule) continue;
        const values = [...req.rules, ...req.conditional];
        for (const rule of values) {
          expect(defined.has(rule)).toBe(true);
          expect(req.rule).toContain(rule.description.replace(/^signed in; /, ''));
        }
        declared += req.rules.length;
        if (!values.length) prose.push(field.name);
      }
    }
    expect(declared).toBeGreaterThan(90);
    // No operation states a rule that is not a value the executor checks.
    expect(prose).toEqual([]);
  });

  it('make the executor refuse an answer given without running the declared rule', async () => {
    const rule = defineObjectRule('test.owner', 'an owner of the test', (_ctx: unknown, ok: boolean) => {
      if (!ok) throw new Error('refused');
    });
    const ctx = {} as Parameters<typeof rule>[0];
    await expect(runAudited('skips', [rule], () => 'answer')).rejects.toThrow(
      'skips answered without enforcing test.owner',
    );
    await expect(runAudited('checks', [rule], async () => (rule(ctx, true), 'answer'))).resolves.toBe('answer');
    await expect(runAudited('refuses', [rule], () => rule(ctx, false))).rejects.toThrow('refused');
    await expect(runAudited('lists', [rule], () => rule.each(ctx, []))).resolves.toEqual([]);
    expect(describeRequirement(requirement([SIGN_IN, objectRule(rule, { note: ', as stated' })]))).toBe(
      'Requires: sign-in; an owner of the test, as stated (object rule).',
    );
  });
});
