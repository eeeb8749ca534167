import { createHmac } from 'node:crypto';
import { AppError } from '../core/errors.js';
import { jwtMessages, signJwt, verifyApiKeyJwt } from './jwt.js';

const SECRET = 'a'.repeat(64);
const ISS = 'user:1:42';
const NOW = 1_800_000_000;
const lookup = async (iss: string) => (iss === ISS ? SECRET : null);
const verify = (token: string) => verifyApiKeyJwt(token, lookup, NOW);
const claims = (extra: Record<string, unknown> = {}) => ({ iss: ISS, iat: NOW, exp: NOW + 300, ...extra });

async function failure(token: string): Promise<string> {
  try {
    await verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('UNAUTHENTICATED');
    return (error as AppError).message;
  }
  throw new Error('token was accepted');
}

function unsigned(header: object, payload: object, signature = ''): string {
  const b = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${b(header)}.${b(payload)}.${signature}`;
}

describe('verifyApiKeyJwt (docs/compat-notes.md §2.1)', () => {
  it('accepts a token like the one sign-addon sends', async () => {
    await expect(verify(signJwt(claims(), SECRET))).resolves.toMatchObject({ iss: ISS, iat: NOW });
  });

  it('accepts exactly 300 s of lifetime and refuses 301', async () => {
    await expect(verify(signJwt(claims({ exp: NOW + 300 }), SECRET))).resolves.toBeTruthy();
    expect(await failure(signJwt(claims({ exp: NOW + 301 }), SECRET))).toBe(jwtMessages.tooLong);
  });

  it('applies 5 s of leeway to exp and to a future iat', async () => {
    await expect(verify(signJwt(claims({ iat: NOW - 100, exp: NOW - 5 }), SECRET))).resolves.toBeTruthy();
    expect(await failure(signJwt(claims({ iat: NOW - 100, exp: NOW - 6 }), SECRET))).toBe(jwtMessages.expired);
    await expect(verify(signJwt(claims({ iat: NOW + 5, exp: NOW + 60 }), SECRET))).resolves.toBeTruthy();
    expect(await failure(signJwt(claims({ iat: NOW + 6, exp: NOW + 60 }), SECRET))).toBe(jwtMessages.iatInvalid);
  });

  it('requires iss, exp and iat with the original messages', async () => {
    expect(await failure(signJwt({ iat: NOW, exp: NOW + 60 }, SECRET))).toBe(jwtMessages.issuerMissing);
    expect(await failure(signJwt({ iss: ISS, iat: NOW }, SECRET))).toBe(
      'Invalid JWT: Token is missing the "exp" claim.',
    );
    expect(await failure(signJwt({ iss: ISS, exp: NOW + 60 }, SECRET))).toBe(
      'Invalid JWT: Token is missing the "iat" claim.',
    );
    expect(await failure(signJwt({ iss: ISS }, SECRET))).toBe('Invalid JWT: Token is missing the "exp" claim.');
  });

  it('refuses an unknown issuer before looking at the signature', async () => {
    expect(await failure(signJwt(claims({ iss: 'user:9:9' }), 'other'))).toBe(jwtMessages.issuerUnknown);
    expect(await failure(signJwt(claims({ iss: 12 }), SECRET))).toBe(jwtMessages.issuerUnknown);
  });

  it('accepts HS256 only', async () => {
    expect(await failure(signJwt(claims(), SECRET, 'HS512'))).toBe(jwtMessages.invalidToken);
    expect(await failure(unsigned({ alg: 'none', typ: 'JWT' }, claims()))).toBe(jwtMessages.invalidToken);
    expect(await failure(unsigned({ alg: 'RS256', typ: 'JWT' }, claims(), 'c2ln'))).toBe(jwtMessages.invalidToken);
    expect(await failure(unsigned({ typ: 'JWT' }, claims()))).toBe(jwtMessages.invalidToken);
  });

  it('refuses a wrong secret, a tampered payload and garbage', async () => {
    expect(await failure(signJwt(claims(), 'b'.repeat(64)))).toBe(jwtMessages.decoding);
    const [h, , s] = signJwt(claims(), SECRET).split('.');
    const forged = Buffer.from(JSON.stringify(claims({ exp: NOW + 200 }))).toString('base64url');
    expect(await failure(`${h}.${forged}.${s}`)).toBe(jwtMessages.decoding);
    for (const garbage of ['abc', 'a.b', 'a.b.c.d', '..', '!!.??.**', `${h}.bm90IGpzb24.${s}`]) {
      expect(await failure(garbage)).toBe(jwtMessages.decoding);
    }
    const arrayPayload = Buffer.from('[1,2]').toString('base64url');
    expect(await failure(`${h}.${arrayPayload}.${s}`)).toBe(jwtMessages.decoding);
  });

  it('treats claim types as the original did', async () => {
    expect(await failure(signJwt(claims({ iat: 'soon' }), SECRET))).toBe(jwtMessages.iatInvalid);
    expect(await failure(signJwt(claims({ iat: String(NOW) }), SECRET))).toBe(jwtMessages.wrongType);
    expect(await failure(signJwt(claims({ iat: [NOW] }), SECRET))).toBe(jwtMessages.wrongType);
    expect(await failure(signJwt(claims({ exp: 'later' }), SECRET))).toBe(jwtMessages.decoding);
    expect(await failure(signJwt(claims({ exp: String(NOW + 60) }), SECRET))).toBe(jwtMessages.wrongType);
    expect(await failure(signJwt(claims({ jti: 7 }), SECRET))).toBe(jwtMessages.wrongType);
  });

  it('refuses refreshable tokens', async () => {
    expect(await failure(signJwt(claims({ orig_iat: NOW }), SECRET))).toBe(jwtMessages.refreshable);
  });

  it('checks the signature over the exact bytes sent', async () => {
    const header = Buffer.from('{"alg":"HS256"}').toString('base64url');
    const body = Buffer.from(`{"iss":"${ISS}","iat":${NOW},"exp":${NOW + 60}}`).toString('base64url');
    const sig = createHmac('sha256', SECRET).update(`${header}.${body}`).digest('base64url');
    await expect(verify(`${header}.${body}.${sig}`)).resolves.toBeTruthy();
  });
});
