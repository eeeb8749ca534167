import type { RestExchangeOidcTokenMutation } from '../generated/operations.js';
import { defineRoutes, gql } from '../route.js';

/**
 * Trusted publishing's exchange: `POST /api/v5/trusted-publishing/token/` with JSON `{"token": "<OIDC
 * ID token>"}` and no Authorization header answers a short-lived API key for `web-ext sign`.
 */
export const trustedPublishingRoutes = defineRoutes([
  {
    method: 'POST',
    path: '/trusted-publishing/token/',
    versions: ['v5'],
    document: gql`
      mutation RestExchangeOidcToken($token: String) {
        exchangeOidcToken(token: $token) {
          apiKey
          apiSecret
          expiresAt
        }
      }
    `,
    variables: (req) => {
      const token = (req.body as { token?: unknown } | null)?.token;
      return { token: typeof token === 'string' ? token : null };
    },
    shape: ({ exchangeOidcToken: issued }: RestExchangeOidcTokenMutation) => ({
      api_key: issued.apiKey,
      api_secret: issued.apiSecret,
      expires_at: issued.expiresAt,
    }),
  },
]);
