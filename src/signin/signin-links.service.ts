import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addressKey, takeAbuseThrottle } from '../abuse/abuse.throttle.js';
import type { SessionsService } from '../auth/sessions.service.js';
import { Viewer } from '../auth/viewer.js';
import { createRequestContext, type RequestContext } from '../core/context.js';
import { isEmailAddress } from '../core/email.js';
import { errors } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { fieldMessages } from '../core/messages.js';
import type { Signer } from '../core/secrets.js';
import { lengthProblem, maxLengthMessage } from '../core/text-limits.js';
import { ownTransaction } from '../db/conflict-retries.js';
import { selectRows } from '../db/rows.js';
import type { Mailer } from '../mail/mailer.port.js';
import { mails } from '../mail/templates.js';
import { withError } from './return-to.js';
import { SigninRefused } from './signin-accounts.js';
import { SigninLink } from './signin.entities.js';
import type { FinishedSignin, SigninService } from './signin.service.js';
import { ACCOUNTS_TEXT_LIMITS } from '../accounts/text-limits.js';
import { SIGNIN_TEXT_LIMITS } from './text-limits.js';

/** Where a link's page is, under the site's URL (`signin.pages.ts`, mounted at `/signin`). */
export const LINK_PATH = '/signin/link/';

/** The sign-in origin of a link's sessions (`Session.origin`, `mySessions`). */
export const LINK_PROVIDER = 'email-link';

export interface SigninLinksOptions {
  /** SIGNIN_EMAIL_LINKS: off, no link is sent or signs in. */
  enabled: boolean;
  /** SIGNIN_LINK_MINUTES: how long a link stays usable. */
  minutes: number;
  /**
   * The site's configured URL (SITE_URL, else `http://localhost:<PORT>`), the links' origin: never
   * the request's `Host`, which whoever asks for a link for someone else's address would choose.
   */
  siteUrl: string;
  /** VENDOR_NAME, in the mail. */
  serviceName: string;
  /** Links per address and per client address (IPv6: its /64) per hour; default 3 and 10. */
  perEmailPerHour?: number;
  perIpPerHour?: number;
}

/** Queues the mail of a new link in the transaction that wrote it (the `signin-link-mail` job). */
export type QueueLinkMail = (tx: EntityManager, linkId: string) => Promise<void>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One-time sign-in links by mail: the sign-in of an install without an OpenID Connect provider
 * (the zero-setup default), safe to leave on.
 *
 * - Asking for a link answers the same whatever the address (known, unknown, deleted): nobody learns
 *   who has an account. Each address gets at most 3 links an hour and each client address asks for
 *   at most 10 (THROTTLED), so the service cannot be made to flood a mailbox.
 * - A link is `<row id>.<HMAC of the id>` (a key derived from SECRET_KEY for this purpose only):
 *   nothing stored (the row, the mail job's payload: the id alone) can sign anyone in, and the mail
 *   job computes the link again.
 * - It works once (taken by one `update … where used_at is null`, so two uses at once cannot both
 *   sign in), for SIGNIN_LINK_MINUTES, and signs in the account of its address, or a new one.
 * - Its page asks for a button press (a POST): mail scanners that open links do not use them.
 */
export class SigninLinksService {
  private readonly perEmail: number;
  private readonly perIp: number;

  constructor(
    private readonly signin: SigninService,
    private readonly sessions: SessionsService,
    private readonly signer: Signer,
    private readonly mailer: Mailer,
    private readonly queueMail: QueueLinkMail,
    private readonly fork: () => EntityManager,
    private readonly logger: Logger,
    private readonly options: SigninLinksOptions,
  ) {
    this.perEmail = options.perEmailPerHour ?? 3;
    this.perIp = options.perIpPerHour ?? 10;
  }

  get enabled(): boolean {
    return this.options.enabled;
  }

  /** Minutes a link works. */
  get minutes(): number {
    return this.options.minutes;
  }

  /**
   * Mails a link for `email` (returning to `to` once used). Always true, whether or not the address
   * has an account; refused only for a malformed address, when links are off, or when throttled.
   */
  async request(ctx: RequestContext, email: string, to: string | null | undefined): Promise<true> {
    this.refuseDisabled();
    const address = normalEmail(email);
    const returnTo = this.signin.returnTo(ctx, to);
    await ownTransaction(ctx.em, async (tx) => {
      // The address first: a refused one does not count against the client, and is not stored in clear.
      await this.throttle(tx, 'signin-email', this.perEmail, this.signer.sign(`throttle:${address}`));
      await this.throttle(tx, 'signin-ip', this.perIp, addressKey(ctx.request.ip ?? 'unknown'));
      const link = await this.create(tx, address, returnTo);
      await this.queueMail(tx, link.id);
    });
    return true;
  }

  /**
   * A link for `email` without a mail (`users:signin-link`, for the first administrator of an
   * install that delivers no mail): its URL. Not throttled: only the operator runs it.
   */
  async issue(
    em: EntityManager,
    email: string,
    to: string | null | undefined,
  ): Promise<{ url: string; expiresAt: Date }> {
    this.refuseDisabled();
    const address = normalEmail(email);
    const ctx = createRequestContext({
      em,
      viewer: Viewer.anonymous,
      locale: 'en-US',
      request: { baseUrl: this.options.siteUrl, ip: null },
    });
    const returnTo = this.signin.returnTo(ctx, to);
    const link = await ownTransaction(em, (tx) => this.create(tx, address, returnTo));
    return { url: this.url(link.id), expiresAt: link.expiresAt };
  }

  /** The `signin-link-mail` job: mails a link still unused and unexpired (again after a failed send). */
  async mailLink(linkId: string): Promise<void> {
    if (!UUID.test(linkId)) return;
    const em = this.fork();
    const link = await em.findOne(SigninLink, { id: linkId, usedAt: null, expiresAt: { $gt: new Date() } });
    if (!link) return;
    await this.mailer.send({
      to: link.email,
      ...mails.signinLink.render({
        serviceName: this.options.serviceName,
        link: this.url(link.id),
        minutes: String(this.options.minutes),
      }),
    });
  }

  /** Signs in with a link's token: a session (`token`), or why not (`error`, and `returnTo` with it). */
  async use(ctx: RequestContext, token: string): Promise<FinishedSignin> {
    return (await this.redeem(ctx, token)).finished;
  }

  /**
   * `use`, with where the link was to return to (the sign-in choice page keeps it after a refusal):
   * the link taken (`used_at`) and the account's session in one transaction, so a failure leaves the
   * link usable and a refusal (a deleted account) leaves it used.
   */
  async redeem(ctx: RequestContext, token: string): Promise<{ finished: FinishedSignin; to: string }> {
    const refuse = (to: string, error: SigninRefused) => {
      this.logger.info({ code: error.code, reason: error.message }, 'sign-in link refused');
      return {
        finished: {
          token: null,
          returnTo: withError(to, error.code),
          error: error.code,
          newAccount: false,
          expiresIn: 0,
        },
        to,
      };
    };
    const invalid = new SigninRefused('ERROR_LINK_INVALID', 'This sign-in link is not valid, was used, or expired.');
    if (!this.options.enabled) return refuse('/', invalid);
    const id = this.linkId(token);
    if (id === null) return refuse('/', invalid);
    return ownTransaction(ctx.em, async (tx) => {
      const [taken] = await selectRows<{ email: string; return_to: string }>(
        tx,
        `update signin_links set used_at = now()
          where id = ? and used_at is null and expires_at > now()
          returning email, return_to`,
        [id],
      );
      if (!taken) {
        // Used or expired (the token is genuine): where it was to return to, for the next sign-in.
        const [known] = await selectRows<{ return_to: string }>(tx, 'select return_to from signin_links where id = ?', [
          id,
        ]);
        return refuse(known?.return_to ?? '/', invalid);
      }
      const inTx = createRequestContext({ em: tx, viewer: ctx.viewer, locale: ctx.locale, request: ctx.request });
      try {
        const { token: session, created } = await this.signin.signIn(
          inTx,
          { provider: LINK_PROVIDER, subject: null, email: taken.email, emailVerified: true },
          false,
        );
        return {
          finished: {
            token: session,
            returnTo: taken.return_to,
            error: null,
            newAccount: created,
            expiresIn: this.sessions.maxAgeSeconds,
          },
          to: taken.return_to,
        };
      } catch (error) {
        // Refused (the account was deleted): the link stays used.
        if (error instanceof SigninRefused) return refuse(taken.return_to, error);
        throw error;
      }
    });
  }

  /** Whether `token` is a link that would sign in now (read only: its page, opened by a GET). */
  async usable(em: EntityManager, token: string): Promise<boolean> {
    const id = this.options.enabled ? this.linkId(token) : null;
    if (id === null) return false;
    return (await em.count(SigninLink, { id, usedAt: null, expiresAt: { $gt: new Date() } })) > 0;
  }

  /** The link's row id when `token` is one of this service's (checked in constant time), else null. */
  private linkId(token: string): string | null {
    if (typeof token !== 'string' || lengthProblem(token, SIGNIN_TEXT_LIMITS.signinLinkToken)) return null;
    const dot = token.indexOf('.');
    const id = token.slice(0, dot);
    if (dot < 0 || !UUID.test(id)) return null;
    return this.signer.verify(id, token.slice(dot + 1)) ? id : null;
  }

  private url(id: string): string {
    return `${this.options.siteUrl}${LINK_PATH}${id}.${this.signer.sign(id)}`;
  }

  private async create(tx: EntityManager, email: string, returnTo: string): Promise<SigninLink> {
    // Expired links sign no one in: their rows go.
    await tx.nativeDelete(SigninLink, { expiresAt: { $lt: new Date() } });
    const link = tx.create(SigninLink, {
      id: randomUUID(),
      email,
      returnTo,
      expiresAt: new Date(Date.now() + this.options.minutes * 60_000),
    });
    await tx.flush();
    return link;
  }

  private async throttle(
    tx: EntityManager,
    scope: 'signin-email' | 'signin-ip',
    requests: number,
    key: string,
  ): Promise<void> {
    const wait = await takeAbuseThrottle(tx, { scope, requests, seconds: 3600 }, key);
    if (wait !== null) throw errors.throttled(wait);
  }

  private refuseDisabled(): void {
    if (!this.options.enabled) {
      throw errors.forbidden('Sign-in links by mail are turned off on this site (SIGNIN_EMAIL_LINKS).');
    }
  }
}

/** The address, trimmed and lower-cased, or a field error (`email`). */
function normalEmail(email: string): string {
  const address = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!address) throw errors.field('email', fieldMessages.required);
  if (lengthProblem(address, ACCOUNTS_TEXT_LIMITS.email))
    throw errors.field('email', maxLengthMessage(ACCOUNTS_TEXT_LIMITS.email));
  if (!isEmailAddress(address)) throw errors.field('email', fieldMessages.email);
  return address;
}
