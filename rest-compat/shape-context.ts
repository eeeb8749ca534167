import { formatTimestamp } from '../src/core/dates.js';
import { canonicalLocale } from '../src/core/i18n/locales.js';
import { setCookie } from '../src/auth/session-cookie.js';
import type { Services } from '../src/modules.js';
import { linkOutput, translatedLinkOutput, translatedOutput } from './shapes/l10n.js';
import type { RestRequest, ShapeContext } from './route.js';

/**
 * What a route's shaper reads besides the data: the request's switches (`lang`,
 * `wrap_outgoing_links`, the version's gates), its origin for absolute URLs, and the outputs
 * (translations, outgoing links, timestamps, cookies) rendered as the version renders them.
 */
export function createShapeContext(
  request: RestRequest,
  requestUrl: URL,
  services: Pick<Services, 'links' | 'config'>,
): ShapeContext {
  const lang = request.query.has('lang') ? (canonicalLocale(request.query.get('lang')) ?? request.locale) : null;
  const wrapRequested = request.query.has('wrap_outgoing_links');
  const host = requestUrl.host;
  const baseUrl = requestUrl.origin;
  const flat = request.gate('l10n_flat_input_output');
  const legacyLinks = request.gate('wrap-outgoing-parameter');
  const wrap = (url: string | null | undefined) => services.links.wrap(url, host);
  const translated = (value: Parameters<typeof translatedOutput>[0], defaultLocale?: string) =>
    translatedOutput(value, lang, flat, defaultLocale);
  return {
    version: request.version,
    request,
    gate: request.gate,
    baseUrl,
    requestUrl,
    translated,
    link: (url) => linkOutput(url, legacyLinks, wrapRequested, wrap),
    translatedLink: (value, defaultLocale) =>
      translatedLinkOutput(translated(value, defaultLocale), legacyLinks, wrapRequested, wrap),
    wrapLink: wrap,
    timestamp: formatTimestamp,
    absolute: (path) => new URL(path, baseUrl + '/').href,
    cookie: (name, value, options) =>
      setCookie(baseUrl, name, value, { ...options, domain: services.config.SESSION_COOKIE_DOMAIN }),
  };
}
