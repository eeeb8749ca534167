import { signJwt } from '../../src/auth/jwt.js';
import type { TestApp } from './app.js';

/** A user with a session and an API key: `session` is its Authorization header, `jwt()` a fresh signing-API one. */
export interface KeyCaller {
  id: number;
  session: string;
  jwt: () => string;
}

const now = () => Math.floor(Date.now() / 1000);

export async function keyCaller(t: TestApp, args: Parameters<TestApp['createUser']>[0] = {}): Promise<KeyCaller> {
  const user = await t.createUser({ session: true, 'api-key': true, ...args });
  const key = user.apiKey!;
  return {
    id: user.id,
    session: `Bearer ${user.sessionToken}`,
    jwt: () => `JWT ${signJwt({ iss: key.key, iat: now(), exp: now() + 300 }, key.secret)}`,
  };
}
