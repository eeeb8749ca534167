import type { Signer } from '../core/secrets.js';

/** An email address is at most this long (RFC 5321); a longer token cannot be one of ours. */
const MAX_EMAIL_LENGTH = 254;
/** base64 of the longest address, with padding. */
export const MAX_TOKEN_LENGTH = 4 * Math.ceil(MAX_EMAIL_LENGTH / 3);
/** A signature: 43 characters of base64url (HMAC-SHA256); a little room for padding. */
export const MAX_HASH_LENGTH = 64;

export interface UnsubscribeCode {
  /** The address in URL-safe base64 (padded, as the original writes it): the catalogue front-end shows it. */
  token: string;
  /** HMAC-SHA256 of the address under the service's `unsubscribe-links` key. */
  hash: string;
}

/**
 * The one-click unsubscribe links of notification mails (the original's `UnsubscribeCode`): the
 * token is the recipient's address in base64, so the page the link opens can show it, and the hash
 * its HMAC, so only the service makes codes. They do not expire: an old mail must still be able to
 * stop the next ones, and the most a leaked code does is turn one notification off.
 */
export class UnsubscribeCodes {
  constructor(private readonly signer: Signer) {}

  create(email: string): UnsubscribeCode {
    return { token: Buffer.from(email, 'utf8').toString('base64url') + padding(email), hash: this.signer.sign(email) };
  }

  /** The address the code was made for, or null when the token or hash is not one of ours. */
  parse(token: unknown, hash: unknown): string | null {
    if (typeof token !== 'string' || typeof hash !== 'string') return null;
    if (!token || token.length > MAX_TOKEN_LENGTH || !hash || hash.length > MAX_HASH_LENGTH) return null;
    // URL-safe or standard alphabet, padding optional (mail clients and proxies rewrite either).
    if (!/^[A-Za-z0-9_\-+/]+={0,2}$/.test(token)) return null;
    const email = Buffer.from(token.replace(/=+$/, ''), 'base64url').toString('utf8');
    if (!email || email.includes('\uFFFD')) return null;
    return this.signer.verify(email, hash) ? email : null;
  }

  /**
   * The page of the catalogue front-end that unsubscribes in one click (it posts the three values
   * to `POST /api/v5/accounts/unsubscribe/`).
   */
  pageUrl(siteUrl: string, email: string, notification: string): string {
    const { token, hash } = this.create(email);
    return `${siteUrl}/users/unsubscribe/${encodeURIComponent(token)}/${hash}/${notification}/`;
  }
}

/** base64 padding (Node's base64url encoder writes none). */
function padding(text: string): string {
  const length = Buffer.byteLength(text, 'utf8') % 3;
  return length === 1 ? '==' : length === 2 ? '=' : '';
}
