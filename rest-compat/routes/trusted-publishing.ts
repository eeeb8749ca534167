import type { RestExchangeOidcTokenMutation } from '../generated/operations.js';
import { errors } from '../../src/core/errors.js';
import { fieldMessages } from '../../src/core/messages.js';
import { defineRoutes, gql } from '../route.js';

/**
 * Trusted publishing's exchange: `POST /api/v5/trusted-publishing/token/` with JSON `{"token": "<OIDC
 * ID token>", "addon": "<id, slug or guid>"}` and no Authorization header answers a short-lived API
 * key for `web-ext sign`, scoped to that add-on (`addon` may be left out while the token matches
 * publishers of one add-on only).
 */
export const trustedPublishingRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/trusted-publishing/token/',
    versions: ['v5'],
    document: gql`
      mutation RestExchangeOidcToken($token: String, $addon: String) {
        exchangeOidcToken(token: $token, addon: $addon) {
          apiKey
          apiSecret
          expiresAt
        }
      }
    `,
    variables: (req) => {
      const body = (req.body ?? {}) as { token?: unknown; addon?: unknown };
      return { token: typeof body.token === 'string' ? body.token : null, addon: addonField(body.addon) };
    },
    shape: ({ exchangeOidcToken: issued }: RestExchangeOidcTokenMutation) => ({
      api_key: issued.apiKey,
      api_secret: issued.apiSecret,
      expires_at: issued.expiresAt,
    }),
  },
]);

/** `addon`: text, or an id as a JSON number; absent or null is none. */
function addonField(value: unknown): string | null {
  if (value === undefined || value === null || typeof value === 'string') return value ?? null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  throw errors.field('addon', fieldMessages.string);
}
