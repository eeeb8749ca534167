import type { Request } from 'express';

/** SITE_URL when configured, else the scheme and host the request came in on. */
export function baseUrlOf(req: Request, siteUrl: string | undefined): string {
  return siteUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
