import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiError, errorCodeFor, type ErrorBody } from './api-error';

/**
 * Turns every error into PROTOCOL.md's `{error: {code, message, details?}}`. Nest's own
 * exceptions (the 404 for an unknown route, the 400 it makes of malformed JSON) keep their status;
 * a client error from the body parser (413 for an oversized body) keeps its status too; anything
 * else is a 500 whose details stay in the log.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    // Only HTTP for now; the Socket.IO gateway will answer errors in its acks.
    if (host.getType() !== 'http') throw exception;
    const { httpAdapter } = this.adapterHost;
    const response: unknown = host.switchToHttp().getResponse();
    const [status, body] = this.describe(exception);
    if (httpAdapter.isHeadersSent(response)) {
      // A streamed response failed halfway: nothing can be said in its place.
      httpAdapter.end(response);
      return;
    }
    httpAdapter.reply(response, body, status);
  }

  private describe(exception: unknown): [number, ErrorBody] {
    if (exception instanceof ApiError) return [exception.getStatus(), exception.body];
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status >= 500) this.logger.error(exception.message, exception.stack);
      return [status, { error: { code: errorCodeFor(status), message: messageOf(exception.getResponse()) } }];
    }
    if (isClientHttpError(exception)) {
      return [
        exception.status,
        { error: { code: errorCodeFor(exception.status), message: exception.message } },
      ];
    }
    this.logger.error(
      exception instanceof Error ? exception.message : String(exception),
      exception instanceof Error ? exception.stack : undefined,
    );
    return [500, { error: { code: 'internal', message: 'internal error' } }];
  }
}

/** Nest's exceptions carry a string or `{message: string | string[]}`. */
function messageOf(response: string | object): string {
  if (typeof response === 'string') return response;
  const message: unknown = 'message' in response ? response.message : undefined;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : 'request failed';
}

/**
 * An `http-errors` error that is safe to show (body-parser's 413 `entity.too.large`, 415
 * `charset.unsupported`, ...): `expose` is set only on 4xx errors, whose messages hold no internals.
 */
function isClientHttpError(e: unknown): e is Error & { status: number } {
  return (
    e instanceof Error &&
    'expose' in e &&
    e.expose === true &&
    'status' in e &&
    typeof e.status === 'number' &&
    e.status >= 400 &&
    e.status < 500
  );
}
