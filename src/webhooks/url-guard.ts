import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be sent (no server-side request forgery): http(s) URLs without credentials
 * whose host resolves only to public addresses. Checked when an endpoint is saved and again before
 * every attempt, which then connects to the address checked here (`pinnedLookup`), so a DNS answer
 * that changes in between (rebinding) cannot move the request to another address.
 */
export interface UrlPolicy {
  /** Private, loopback, link-local… addresses allowed (development and tests only). */
  readonly allowPrivateNetworks: boolean;
  /** Host names allowed whatever they resolve to (lower-case, exact). */
  readonly allowedHosts: readonly string[];
  readonly requireHttps: boolean;
}

export interface CheckedUrl {
  readonly url: URL;
  /** The address the request connects to. */
  readonly address: string;
  readonly family: 4 | 6;
}

/** The longest a host name's resolution may take (a mutation's transaction waits for it). */
const LOOKUP_TIMEOUT_MS = 3_000;

/** Why a URL is refused (a field message). */
export class UrlRefused extends Error {}

/**
 * Addresses no webhook may reach unless private networks are allowed; one list per family (a
 * BlockList matches IPv4 addresses against IPv4-mapped IPv6 rules too).
 */
const NOT_PUBLIC_V4 = new BlockList();
const NOT_PUBLIC_V6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 96], // unspecified, loopback (::1), IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped: a public server is reached by its IPv4 address
  ['64:ff9b::', 96], // NAT64: would reach any IPv4 address
  ['100::', 64], // discard
  ['2001::', 32], // Teredo: embeds an IPv4 address (its server's, and the client's obfuscated)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address (2002:7f00:1:: is 127.0.0.1's)
  ['fec0::', 10], // site-local (deprecated, still routed as private by some networks)
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC_V6.addSubnet(net, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return family === 4 ? !NOT_PUBLIC_V4.check(address, 'ipv4') : !NOT_PUBLIC_V6.check(address, 'ipv6');
}

/** The URL's form (scheme, credentials, host): no network access. Throws `UrlRefused`. */
export function parseWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefused('Enter a valid URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UrlRefused('Only http and https URLs.');
  if (policy.requireHttps && url.protocol !== 'https:') throw new UrlRefused('Only https URLs.');
  if (url.username || url.password) throw new UrlRefused('URLs may not carry credentials.');
  if (!url.hostname) throw new UrlRefused('Enter a valid URL.');
  return url;
}

/** The URL's form and every address its host resolves to. Throws `UrlRefused`. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy): Promise<CheckedUrl> {
  const url = parseWebhookUrl(raw, policy);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), LOOKUP_TIMEOUT_MS);
      });
      addresses = await Promise.race([lookup(host, { all: true, verbatim: true }), timeout]);
    } catch {
      throw new UrlRefused('The host name could not be resolved.');
    } finally {
      clearTimeout(timer);
    }
  }
  if (!addresses.length) throw new UrlRefused('The host name could not be resolved.');
  const trusted = policy.allowPrivateNetworks || policy.allowedHosts.includes(host.replace(/\.$/, ''));
  if (!trusted && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new UrlRefused('The host resolves to a private, loopback or reserved address.');
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/** A `lookup` for `http.request` answering the checked address, whatever DNS says now. */
export function pinnedLookup(checked: CheckedUrl) {
  return (_hostname: string, options: { all?: boolean } | undefined, callback: LookupCallback): void => {
    if (options?.all) callback(null, [{ address: checked.address, family: checked.family }]);
    else callback(null, checked.address, checked.family);
  };
}
