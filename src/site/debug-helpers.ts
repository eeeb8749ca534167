import type { RequestContext } from '../core/context.js';
import { AppError, ErrorCode, errors } from '../core/errors.js';

/** What the service sees of a request behind CDNs and load balancers (`clientInfo`). */
export interface ClientInfo {
  userAgent: string | null;
  countryCode: string | null;
  forwardedFor: string | null;
  remoteAddress: string | null;
}

/** The errors `failWith` answers with, as the original's `services/403`, `404` and `500`. */
export const ProbeError = { FORBIDDEN: 403, NOT_FOUND: 404, INTERNAL: 500 } as const;
export type ProbeError = (typeof ProbeError)[keyof typeof ProbeError];

/**
 * The original's debugging helpers (`/api/v5/services/…`): an echo of the request as the service
 * sees it, only where the operator enables it (it shows addresses), and errors on demand, for
 * checking how proxies and clients pass them on. The internal error is the one every unexpected
 * failure gives: no traceback, no log entry (nothing failed).
 */
export class DebugHelpers {
  constructor(private readonly options: { clientInfoEnabled: boolean }) {}

  clientInfo(ctx: RequestContext): ClientInfo {
    if (!this.options.clientInfoEnabled) throw errors.forbidden();
    const { request } = ctx;
    return {
      userAgent: request.userAgent ?? null,
      countryCode: request.countryCode ?? null,
      forwardedFor: request.forwardedFor ?? null,
      remoteAddress: request.ip,
    };
  }

  failWith(kind: ProbeError): never {
    switch (kind) {
      case ProbeError.FORBIDDEN:
        throw errors.forbidden();
      case ProbeError.NOT_FOUND:
        throw errors.notFound();
      default:
        throw new AppError(ErrorCode.INTERNAL, 'Internal Server Error');
    }
  }
}
