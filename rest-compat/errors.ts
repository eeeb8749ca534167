import { GraphQLError } from 'graphql';
import { AppError, asAppError, ErrorCode } from '../src/core/errors.js';
import type { Logger } from '../src/core/logger.js';
import { isTransactionConflict, WRITE_CONFLICT_MESSAGE } from '../src/db/error-chain.js';
import { isDatabaseUnavailable } from '../src/db/unavailable.js';

export interface RestErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ErrorStyle = 'drf' | 'signing';

const INTERNAL: RestErrorResponse = { status: 500, body: { detail: 'Internal Server Error' } };
/** The database is down or restarting: DRF's ServiceUnavailable (src/ops/outage.ts answers later requests at once). */
const UNAVAILABLE: RestErrorResponse = {
  status: 503,
  body: { detail: 'Service temporarily unavailable, try again later.' },
  headers: { 'Retry-After': '5' },
};

/**
 * A write that lost a race with a concurrent one (a deadlock, a serialization failure, a row it
 * refers to deleted meanwhile: src/db/error-chain.ts) on the executor's last attempt
 * (src/graphql/transactions.ts), or in a mutation's own transaction: nothing was written, and the
 * same request may be sent again.
 */
const WRITE_CONFLICT: RestErrorResponse = {
  status: 409,
  body: { detail: WRITE_CONFLICT_MESSAGE },
  headers: { 'Retry-After': '1' },
};

/** A route's wire names of the domain's field names, where they differ (see RouteDefinition.errorFields). */
export type ErrorFieldNames = Readonly<Record<string, string>>;

/**
 * The one place where domain error codes become HTTP statuses and the original v3/v4 bodies.
 * `signing` routes answer 4xx errors (other than 401) as `{"error": …}`, as the signing API does.
 * Field errors name their fields as `fieldNames` says (the others as the domain does), in order.
 */
export function toRestError(
  error: unknown,
  style: ErrorStyle,
  logger: Logger,
  fieldNames?: ErrorFieldNames,
): RestErrorResponse {
  const appError = asAppError(error) ?? badVariables(error, logger);
  if (!appError) {
    if (isDatabaseUnavailable(error)) return UNAVAILABLE;
    if (isTransactionConflict(error)) {
      logger.warn({ err: (error as GraphQLError)?.originalError ?? error }, 'write conflict in REST request');
      return WRITE_CONFLICT;
    }
    logger.error({ err: (error as GraphQLError)?.originalError ?? error }, 'unexpected error in REST request');
    return INTERNAL;
  }
  const response = mapCode(appError, fieldNames);
  if (style === 'signing' && response.status >= 400 && response.status < 500 && response.status !== 401) {
    return { ...response, body: { error: appError.message } };
  }
  return response;
}

/**
 * A variable GraphQL refused before execution. The route's document was validated at boot, so the
 * route built it badly from the client's input (a number past GraphQL's Int): logged as a route to
 * fix, answered as the client's 400.
 */
function badVariables(error: unknown, logger: Logger): AppError | null {
  // Resolver failures always carry a path; an error without one is about the request's variables.
  const cause = error instanceof GraphQLError ? error.originalError : undefined;
  if (!(error instanceof GraphQLError) || error.path || (cause && !(cause instanceof GraphQLError))) return null;
  logger.error({ err: error }, 'REST route produced invalid GraphQL variables');
  return new AppError(ErrorCode.BAD_REQUEST, 'Invalid parameter.');
}

/** The field errors with their fields renamed to their wire names (order kept). */
function wireFields<T>(fields: Record<string, T>, fieldNames: ErrorFieldNames | undefined): Record<string, T> {
  if (!fieldNames) return fields;
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [fieldNames[name] ?? name, value]));
}

function mapCode(error: AppError, fieldNames?: ErrorFieldNames): RestErrorResponse {
  const code: ErrorCode = error.code;
  const fields = error.fields && wireFields(error.fields, fieldNames);
  switch (code) {
    case ErrorCode.UNAUTHENTICATED:
      return {
        status: 401,
        body: detailBody(error),
        headers: { 'WWW-Authenticate': error.reason ? 'bearer realm="api"' : 'JWT realm="api"' },
      };
    case ErrorCode.FORBIDDEN:
      return { status: 403, body: detailBody(error) };
    case ErrorCode.NOT_FOUND:
      return { status: 404, body: { detail: error.message, ...error.details } };
    case ErrorCode.INVALID_PAGE:
      return { status: 404, body: { detail: error.message } };
    case ErrorCode.VALIDATION_FAILED:
      return { status: 400, body: fields ?? { non_field_errors: [error.message] } };
    case ErrorCode.BAD_PARAMETER:
      return { status: 400, body: [error.message] };
    case ErrorCode.BAD_REQUEST:
      return { status: 400, body: { detail: error.message } };
    case ErrorCode.CONFLICT:
      return { status: 409, body: { detail: error.message } };
    case ErrorCode.UNPROCESSABLE:
      return { status: 422, body: { errors: fields ?? { non_field_errors: [error.message] } } };
    case ErrorCode.THROTTLED:
      return {
        status: 429,
        body: { detail: error.message },
        headers: error.retryAfter !== undefined ? { 'Retry-After': String(error.retryAfter) } : undefined,
      };
    case ErrorCode.READ_ONLY:
      return { status: 503, body: { error: error.message } };
    case ErrorCode.UNAVAILABLE:
      return { status: 503, body: { detail: error.message } };
    case ErrorCode.INTERNAL:
      return INTERNAL;
    default:
      return assertNever(code);
  }
}

function detailBody(error: AppError): Record<string, unknown> {
  return { detail: error.message, ...(error.reason ? { code: error.reason } : {}), ...error.details };
}

function assertNever(code: never): never {
  throw new Error(`Unmapped error code ${String(code)}`);
}
