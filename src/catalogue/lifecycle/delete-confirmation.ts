import { randomBytes } from 'node:crypto';
import { errors } from '../../core/errors.js';
import { Signer } from '../../core/secrets.js';

/** How long a confirmation token is good for, as the original documents (60 seconds). */
export const DELETE_CONFIRMATION_SECONDS = 60;

/**
 * The token an add-on's deletion is confirmed with (the original's `delete_confirm`): an HMAC of
 * the add-on, the user and the expiry, so it is good for that add-on, that user and one minute.
 * Written `<expiry in seconds>.<signature>`.
 */
export class DeleteConfirmations {
  constructor(
    /** Keyed once per service (`keyring.signer('addon-delete-confirm')`); a random key by default. */
    private readonly signer: Signer = new Signer(randomBytes(32)),
    private readonly now: () => number = () => Date.now(),
  ) {}

  issue(addonId: number, userId: number): string {
    const expires = Math.floor(this.now() / 1000) + DELETE_CONFIRMATION_SECONDS;
    return `${expires}.${this.signer.sign(subject(addonId, userId, expires))}`;
  }

  /** Refuses (400, a bare list as the original's) a missing, wrong or expired token. */
  check(addonId: number, userId: number, token: string | null): void {
    if (!token) throw errors.badParameter('"delete_confirm" token must be supplied for add-on delete.');
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{1,100})$/.exec(token);
    const expires = match ? Number(match[1]) : 0;
    const valid =
      !!match &&
      this.signer.verify(subject(addonId, userId, expires), match[2]) &&
      expires >= Math.floor(this.now() / 1000);
    if (!valid) throw errors.badParameter('"delete_confirm" token is invalid.');
  }
}

function subject(addonId: number, userId: number, expires: number): string {
  return `addon-delete:${addonId}:${userId}:${expires}`;
}
