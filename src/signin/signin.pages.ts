import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import type { EntityManager } from '@mikro-orm/postgresql';
import { SESSION_COOKIES, setCookie } from '../auth/session-cookie.js';
import { Viewer } from '../auth/viewer.js';
import { createRequestContext, type RequestContext } from '../core/context.js';
import { asAppError, ErrorCode } from '../core/errors.js';
import { baseUrlOf, userAgentOf } from '../core/http.js';
import { escapeHtml } from '../core/html.js';
import type { SigninLinksService } from './signin-links.service.js';
import type { SigninErrorCode } from './signin-accounts.js';
import type { SigninService } from './signin.service.js';

export interface SigninPagesDeps {
  signin: SigninService;
  links: SigninLinksService;
  /** A new entity manager per request (`db.fork()`). */
  fork: () => EntityManager;
  /** SITE_URL (the site's origin; else the request's Host). */
  siteUrl: string | undefined;
  /** SESSION_COOKIE_DOMAIN. */
  cookieDomain?: string | undefined;
}

/** Where a provider's sign-in starts (the REST route `rest-compat/routes/signin.ts`). */
const START_PATH = '/api/v5/accounts/login/start/';

/** Every page: never cached, no script, no frame, forms posting only here, the link's URL never sent on. */
const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** What the choice page says of a refused sign-in's `?error=` code. */
const ERROR_TEXTS: Record<SigninErrorCode, string> = {
  ERROR_STATE_MISMATCH: 'The sign-in was not started in this browser, or took too long. Please try again.',
  ERROR_NO_CODE: 'The sign-in provider did not finish the sign-in. Please try again.',
  ERROR_PROVIDER: 'The sign-in provider refused the sign-in.',
  ERROR_AUTHENTICATION_FAILED: 'The sign-in provider’s answer could not be verified. Please try again.',
  ERROR_NO_PROFILE: 'The sign-in provider did not give an email address.',
  ERROR_EMAIL_NOT_VERIFIED: 'The sign-in provider has not verified your email address.',
  ERROR_EMAIL_IN_USE: 'This email address belongs to an account that signs in with another identity.',
  ERROR_ACCOUNT_DELETED: 'This account was deleted; it cannot be signed in to again.',
  ERROR_LINK_INVALID: 'This sign-in link is not valid: it was used already, or it expired. Ask for a new one below.',
};

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}' +
  'input[type=email]{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}' +
  'button{font:inherit;padding:.4rem 1.2rem;margin-top:.5rem}.error{color:#a00}ul{padding-left:1.2rem}';

/**
 * The sign-in pages, plain HTML without script (mounted at `/signin`):
 *
 * - `GET /signin/?to=…` the choice: each configured provider, and (links on) a form asking for an
 *   address to mail a one-time link to; a refused sign-in's `?error=` is said in words;
 * - `POST /signin/link` (email, to) mails a link; the same answer whatever the address;
 * - `GET /signin/link/<token>` a page with one button: mail scanners open links, and a GET never
 *   signs in;
 * - `POST /signin/link/<token>` signs in: the session cookie, and back to where the link returns
 *   (refused: the choice page, with `?error=`).
 *
 * POSTs from another site (`Origin`, else `Sec-Fetch-Site`) are refused (403): no other site can
 * make a browser ask for links or sign in to someone else's account.
 */
export function signinPages(deps: SigninPagesDeps): Router {
  const router = Router();
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 }));

  const context = (req: Request): RequestContext =>
    createRequestContext({
      em: deps.fork(),
      viewer: Viewer.anonymous,
      locale: 'en-US',
      request: { baseUrl: baseUrlOf(req, deps.siteUrl), ip: req.ip ?? null, userAgent: userAgentOf(req) },
    });

  const sameSite: RequestHandler = (req, res, next) => {
    if (fromThisSite(req, new URL(baseUrlOf(req, deps.siteUrl)).origin)) return next();
    send(res, 403, 'Refused', '<p>This form can only be sent from this site’s own pages.</p>');
  };

  router.get('/', (req, res) => {
    const ctx = context(req);
    const to = deps.signin.returnTo(ctx, text(req.query.to));
    const code = text(req.query.error);
    const error = code && Object.hasOwn(ERROR_TEXTS, code) ? ERROR_TEXTS[code as SigninErrorCode] : null;
    send(res, 200, 'Sign in', choice(req, deps, to, { error }));
  });

  router.post('/link', sameSite, async (req, res) => {
    const ctx = context(req);
    const email = text(req.body?.email) ?? '';
    const to = deps.signin.returnTo(ctx, text(req.body?.to));
    try {
      await deps.links.request(ctx, email, to);
    } catch (error) {
      const appError = asAppError(error);
      if (appError?.code === ErrorCode.THROTTLED) {
        res.setHeader('Retry-After', String(appError.retryAfter ?? 3600));
        const minutes = Math.max(1, Math.ceil((appError.retryAfter ?? 3600) / 60));
        return send(
          res,
          429,
          'Too many sign-in links',
          `<p>Too many sign-in links were asked for this address or from your network. ` +
            `Please wait ${minutes} minute${minutes === 1 ? '' : 's'}, or use the last link you received.</p>` +
            back(req, to),
        );
      }
      if (appError?.code === ErrorCode.VALIDATION_FAILED) {
        const message = appError.fields?.email?.[0] ?? appError.message;
        return send(res, 400, 'Sign in', choice(req, deps, to, { error: message, email }));
      }
      if (appError?.code === ErrorCode.FORBIDDEN) {
        return send(res, 403, 'Sign-in links are turned off', `<p>${escapeHtml(appError.message)}</p>${back(req, to)}`);
      }
      throw error;
    }
    send(
      res,
      200,
      'Check your mail',
      `<p>If <strong>${escapeHtml(email.trim())}</strong> is your address, a sign-in link is on its way to it. ` +
        `It works once, for ${deps.links.minutes} minutes.</p>` +
        `<p>No mail after a few minutes? Check the address and your spam folder, then ask again.</p>` +
        back(req, to),
    );
  });

  router.get('/link/:token', async (req, res) => {
    if (!deps.links.enabled) {
      return send(
        res,
        403,
        'Sign-in links are turned off',
        `<p>This site no longer signs in by mailed links.</p>${back(req, '/')}`,
      );
    }
    if (!(await deps.links.usable(deps.fork(), String(req.params.token)))) {
      return send(res, 410, 'Link not valid', `<p>${escapeHtml(ERROR_TEXTS.ERROR_LINK_INVALID)}</p>${back(req, '/')}`);
    }
    // No sign-in here: only the button's POST signs in (scanners and previews fetch links with GET).
    send(
      res,
      200,
      'Sign in',
      '<p>Press the button to sign in in this browser. The link then stops working.</p>' +
        '<form method="post"><button type="submit">Sign in</button></form>',
    );
  });

  router.post('/link/:token', sameSite, async (req, res) => {
    const ctx = context(req);
    const { finished, to } = await deps.links.redeem(ctx, String(req.params.token));
    if (finished.token === null) {
      const choicePage = new URL(`${req.baseUrl}/`, 'http://relative.invalid');
      if (to !== '/') choicePage.searchParams.set('to', to);
      choicePage.searchParams.set('error', finished.error ?? 'ERROR_LINK_INVALID');
      res.setHeader('Cache-Control', 'no-store');
      return res.redirect(302, choicePage.pathname + choicePage.search);
    }
    res.setHeader(
      'Set-Cookie',
      SESSION_COOKIES.map((name) =>
        setCookie(ctx.request.baseUrl, name, finished.token!, {
          maxAgeSeconds: finished.expiresIn,
          domain: deps.cookieDomain,
        }),
      ),
    );
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(302, finished.returnTo);
  });

  // A body too large or malformed: a page, not the API's JSON.
  const bodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status < 400 || status >= 500 || res.headersSent) return next(error);
    send(res, status, 'Bad request', '<p>The form could not be read. Please go back and try again.</p>');
  };
  router.use(bodyErrors);
  return router;
}

/** The choice page's body: the providers, and the link form when links are on. */
function choice(
  req: Request,
  deps: SigninPagesDeps,
  to: string,
  shown: { error: string | null; email?: string },
): string {
  const parts: string[] = [];
  if (shown.error) parts.push(`<p class="error" role="alert">${escapeHtml(shown.error)}</p>`);
  const providers = deps.signin.providers();
  if (providers.length) {
    const items = providers.map((provider) => {
      const start = new URLSearchParams({ provider: provider.id });
      if (to !== '/') start.set('to', to);
      return `<li><a href="${escapeHtml(`${START_PATH}?${start}`)}">Sign in with ${escapeHtml(provider.displayName)}</a></li>`;
    });
    parts.push(`<ul>${items.join('')}</ul>`);
  }
  if (deps.links.enabled) {
    parts.push(
      `<form method="post" action="${escapeHtml(`${req.baseUrl}/link`)}">` +
        `<p><label for="email">${providers.length ? 'Or get' : 'Get'} a sign-in link by mail:</label><br>` +
        `<input type="email" id="email" name="email" required maxlength="255" autocomplete="email" value="${escapeHtml(shown.email ?? '')}"></p>` +
        `<input type="hidden" name="to" value="${escapeHtml(to)}">` +
        `<button type="submit">Send me a link</button></form>`,
    );
  }
  if (!providers.length && !deps.links.enabled) {
    parts.push('<p>No way to sign in is configured on this site. Please ask its operator.</p>');
  }
  return parts.join('');
}

function back(req: Request, to: string): string {
  const query = to === '/' ? '' : `?${new URLSearchParams({ to })}`;
  return `<p><a href="${escapeHtml(`${req.baseUrl}/${query}`)}">Back to sign-in</a></p>`;
}

function send(res: Response, status: number, title: string, body: string): void {
  res.status(status).set(PAGE_HEADERS);
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
      `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
  );
}

/** A single text value (a repeated parameter, an object from a parser: none). */
function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/**
 * Whether a POST comes from this site's pages: its `Origin` (every browser sends one with a form's
 * POST) is the site's; without one, `Sec-Fetch-Site` does not say another site; neither (a client
 * that is no browser): yes, no browser's cookies or page are involved.
 */
function fromThisSite(req: Request, siteOrigin: string): boolean {
  const origin = req.headers.origin;
  if (typeof origin === 'string') return origin === siteOrigin;
  const fetchSite = req.headers['sec-fetch-site'];
  return fetchSite === undefined || fetchSite === 'same-origin' || fetchSite === 'none';
}
