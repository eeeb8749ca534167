import type { Signer } from './secrets.js';

/**
 * `wrap_outgoing_links`: external URLs go through the outgoing redirector as
 * `<OUTGOING_URL>/<hmac>/<url>`, so the redirector can refuse links it did not sign.
 * URLs on the site's own host are left alone, as are non-http(s) values.
 */
export class OutgoingLinks {
  constructor(
    private readonly base: string,
    private readonly signer: Signer,
  ) {}

  wrap(url: string | null | undefined, siteHost: string | null): string | null {
    if (!url) return url ?? null;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return url;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return url;
    if (siteHost && parsed.host.toLowerCase() === siteHost.toLowerCase()) return url;
    if (url.startsWith(this.base + '/')) return url;
    return `${this.base}/${this.signer.sign(url)}/${encodeURIComponent(url).replace(/%2F/g, '/').replace(/%26/g, '&').replace(/%3D/g, '=')}`;
  }

  /** Checks a wrapped link's signature (for a redirector sharing this service's key). */
  verify(signature: string, url: string): boolean {
    return this.signer.verify(url, signature);
  }
}
