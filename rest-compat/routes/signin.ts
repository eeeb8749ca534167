import { SESSION_COOKIES } from '../../src/auth/session-cookie.js';
import type { RestFinishSignInMutation, RestStartSignInMutation } from '../generated/operations.js';
import { JsonReply, RedirectReply } from '../http.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';

/** The cookie binding a sign-in to the browser that started it (read by the callback only). */
export const BINDING_COOKIE = 'signin_binding';
const BINDING_PATH = '/api/';

const NO_STORE = { 'Cache-Control': 'no-store' };

/** The front-ends' `config`, when it names a provider (else none: the default or the choice). */
function knownConfig(req: RestRequest): string | null {
  const config = req.query.get('config');
  return config && /^[a-z][a-z0-9-]{0,31}$/.test(config) ? config : null;
}

/** A query parameter's value when it is a yes (`1`, `true`, `yes`). */
const yes = (req: RestRequest, name: string) => ['1', 'true', 'yes'].includes(req.query.get(name) ?? '');

const finish = {
  method: 'GET' as const,
  document: gql`
    mutation RestFinishSignIn($callbackUrl: String!, $binding: String) {
      finishSignIn(callbackUrl: $callbackUrl, binding: $binding) {
        token
        returnTo
        expiresIn
      }
    }
  `,
  variables: (req: RestRequest) => ({ callbackUrl: req.url.href, binding: req.cookie(BINDING_COOKIE) }),
  shape: ({ finishSignIn: done }: RestFinishSignInMutation, ctx: ShapeContext) => {
    const cookies = [ctx.cookie(BINDING_COOKIE, '', { maxAgeSeconds: 0, path: BINDING_PATH })];
    if (done.token) {
      for (const name of SESSION_COOKIES) cookies.push(ctx.cookie(name, done.token, { maxAgeSeconds: done.expiresIn }));
    }
    return new RedirectReply(done.returnTo, { 'Set-Cookie': cookies, ...NO_STORE });
  },
};

/**
 * Browser sign-in, the original's flow: the front-ends' sign-in buttons open
 * `/api/<v>/accounts/login/start/?to=<path>` (with `provider=<name>` to skip the choice, and
 * `require_two_factor=1` to ask for a second factor), which sends the browser to the provider;
 * the provider sends it back to the callback, which sets the session cookie (`frontend_auth_token`)
 * and returns to `to` (`?error=<code>` when refused).
 */
export const signinRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/accounts/login/start/',
    versions: ['v3', 'v4', 'v5'],
    document: gql`
      mutation RestStartSignIn($provider: String, $preferred: String, $to: String, $secondFactor: Boolean) {
        startSignIn(provider: $provider, preferredProvider: $preferred, to: $to, secondFactor: $secondFactor) {
          location
          binding
        }
      }
    `,
    variables: (req) => ({
      provider: req.query.get('provider'),
      // `config` is how the original's front-ends name their provider configuration (`amo`).
      preferred: knownConfig(req),
      to: req.query.get('to'),
      secondFactor: yes(req, 'require_two_factor'),
    }),
    shape: ({ startSignIn: started }: RestStartSignInMutation, ctx) =>
      new RedirectReply(started.location, {
        ...(started.binding
          ? {
              'Set-Cookie': ctx.cookie(BINDING_COOKIE, started.binding, { maxAgeSeconds: 600, path: BINDING_PATH }),
            }
          : {}),
        ...NO_STORE,
      }),
  },
  { ...finish, path: '/accounts/authenticate-callback/', versions: ['v5'] },
  { ...finish, path: '/accounts/authenticate/', versions: ['v3', 'v4'] },
]);

/** Logout's answer also clears the session cookies. */
export function loggedOut(ctx: ShapeContext): JsonReply {
  return new JsonReply(
    { ok: true },
    { 'Set-Cookie': SESSION_COOKIES.map((name) => ctx.cookie(name, '', { maxAgeSeconds: 0 })) },
  );
}
