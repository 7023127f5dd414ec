import { HttpException, HttpStatus } from '@nestjs/common';

/** PROTOCOL.md's error codes, plus the two a server may need for itself. */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

/** The body of every error response: `{error: {code, message, details?}}`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

const STATUS_CODES: Record<number, ErrorCode> = {
  [HttpStatus.BAD_REQUEST]: 'invalid_request',
  [HttpStatus.UNAUTHORIZED]: 'unauthenticated',
  [HttpStatus.FORBIDDEN]: 'forbidden',
  [HttpStatus.NOT_FOUND]: 'not_found',
  [HttpStatus.CONFLICT]: 'conflict',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'too_large',
  [HttpStatus.TOO_MANY_REQUESTS]: 'rate_limited',
  [HttpStatus.SERVICE_UNAVAILABLE]: 'unavailable',
};

/** The code for a status that came without one: any other 4xx is a bad request, 5xx internal. */
export function errorCodeFor(status: number): ErrorCode {
  return STATUS_CODES[status] ?? (status < 500 ? 'invalid_request' : 'internal');
}

const CODE_STATUSES: Record<ErrorCode, HttpStatus> = {
  invalid_request: HttpStatus.BAD_REQUEST,
  unauthenticated: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  not_found: HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  too_large: HttpStatus.PAYLOAD_TOO_LARGE,
  rate_limited: HttpStatus.TOO_MANY_REQUESTS,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
  internal: HttpStatus.INTERNAL_SERVER_ERROR,
};

/**
 * An error a handler throws to answer with PROTOCOL.md's shape, e.g.
 * `throw new ApiError('conflict', 'HEAD moved since you last saw it', { head })`.
 */
export class ApiError extends HttpException {
  constructor(code: ErrorCode, message: string, details?: unknown) {
    const body: ErrorBody = { error: details === undefined ? { code, message } : { code, message, details } };
    super(body, CODE_STATUSES[code]);
  }

  get body(): ErrorBody {
    return this.getResponse() as ErrorBody;
  }
}
