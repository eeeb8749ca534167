import { GraphQLError } from 'graphql';

/**
 * Error codes shared by every domain. GraphQL clients see them as `extensions.code`;
 * `rest-compat/errors.ts` is the one place that turns them into HTTP statuses and the
 * original v3/v4 body shapes. Adding a code fails to compile until that mapper handles it.
 */
export const ErrorCode = {
  /** No or invalid credentials (401). */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** Authenticated but not allowed (403). */
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  /** A page number past the end of a list. */
  INVALID_PAGE: 'INVALID_PAGE',
  /** Field validation: `fields` maps field names (or `non_field_errors`) to messages. */
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** A bad query/filter parameter; the original answers these with a bare JSON array. */
  BAD_PARAMETER: 'BAD_PARAMETER',
  /** A request the server could not parse (malformed body, bad header value). */
  BAD_REQUEST: 'BAD_REQUEST',
  CONFLICT: 'CONFLICT',
  /** Unprocessable parameters (super-create answers 422). */
  UNPROCESSABLE: 'UNPROCESSABLE',
  THROTTLED: 'THROTTLED',
  /** The site is in maintenance (read-only) mode. */
  READ_ONLY: 'READ_ONLY',
  /** A service this request needs (a sign-in provider) cannot be reached now (503). */
  UNAVAILABLE: 'UNAVAILABLE',
  INTERNAL: 'INTERNAL_SERVER_ERROR',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export type FieldErrors = Record<string, string[]>;

export interface AppErrorOptions {
  /** Field-level messages (VALIDATION_FAILED). */
  fields?: FieldErrors;
  /** A machine code for auth failures, e.g. ERROR_INVALID_HEADER (401/403 `code`). */
  reason?: string;
  /** Extra keys the original puts into the error body (e.g. is_disabled_by_developer). */
  details?: Record<string, unknown>;
  /** Seconds until a throttled request may be retried. */
  retryAfter?: number;
  cause?: unknown;
}

/** An expected failure with a stable code. Thrown by services, never by accident. */
export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  readonly reason?: string;
  readonly details?: Record<string, unknown>;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    const extensions: Record<string, unknown> = { code };
    if (options.fields) extensions.fields = options.fields;
    if (options.reason) extensions.reason = options.reason;
    if (options.details) extensions.details = options.details;
    if (options.retryAfter !== undefined) extensions.retryAfter = options.retryAfter;
    super(message, { extensions, originalError: options.cause instanceof Error ? options.cause : undefined });
    this.name = 'AppError';
    this.code = code;
    this.fields = options.fields;
    this.reason = options.reason;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

/** Common constructors, with the original service's default messages. */
export const errors = {
  notAuthenticated: (details?: Record<string, unknown>) =>
    new AppError(ErrorCode.UNAUTHENTICATED, 'Authentication credentials were not provided.', { details }),
  authenticationFailed: (message: string, reason?: string) =>
    new AppError(ErrorCode.UNAUTHENTICATED, message, { reason }),
  forbidden: (message = 'You do not have permission to perform this action.', details?: Record<string, unknown>) =>
    new AppError(ErrorCode.FORBIDDEN, message, { details }),
  notFound: (message = 'Not found.') => new AppError(ErrorCode.NOT_FOUND, message),
  invalidPage: () => new AppError(ErrorCode.INVALID_PAGE, 'Invalid page.'),
  validation: (fields: FieldErrors) =>
    new AppError(ErrorCode.VALIDATION_FAILED, firstMessage(fields) ?? 'Invalid input.', { fields }),
  field: (field: string, message: string) => errors.validation({ [field]: [message] }),
  badParameter: (message: string) => new AppError(ErrorCode.BAD_PARAMETER, message),
  badRequest: (message: string) => new AppError(ErrorCode.BAD_REQUEST, message),
  conflict: (message: string) => new AppError(ErrorCode.CONFLICT, message),
  unavailable: (message: string) => new AppError(ErrorCode.UNAVAILABLE, message),
  /** DRF's throttle message, with `Retry-After`. */
  throttled: (wait: number) =>
    new AppError(
      ErrorCode.THROTTLED,
      `Request was throttled. Expected available in ${wait} second${wait === 1 ? '' : 's'}.`,
      { retryAfter: wait },
    ),
};

function firstMessage(fields: FieldErrors): string | undefined {
  for (const [field, messages] of Object.entries(fields)) {
    if (messages.length) return field === 'non_field_errors' ? messages[0] : `${field}: ${messages[0]}`;
  }
  return undefined;
}

/** The AppError behind a GraphQL error, if there is one. */
export function asAppError(error: unknown): AppError | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}
