import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';

import type { ModelError } from '@sweatpants/agent-runtime';
import type { RetryPolicy } from './claude-config';

/** A failed attempt, classified: what to report, and whether another attempt may help. */
export interface AttemptFailure {
  error: ModelError;
  retryable: boolean;
  /** the response's headers, for `retry-after` */
  headers?: Headers;
}

/** Statuses that say "try again later": the SDK's own policy, narrowed to what the brief names. */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504, 529]);

/** The error type of an SSE `error` event, which arrives with a 200 status already sent. */
const RETRYABLE_STREAM_ERROR_TYPES = new Set(['rate_limit_error', 'overloaded_error', 'api_error']);

/**
 * Turns whatever an attempt threw into a ModelError. The SDK throws APIError subclasses for HTTP
 * errors and SSE `error` events, APIConnectionError when the server could not be reached; anything
 * else (a JSON.parse failure on an event, a dropped stream) means the answer was unreadable.
 */
export function classifyFailure(thrown: unknown): AttemptFailure {
  if (thrown instanceof APIUserAbortError) {
    return { error: { code: 'aborted', message: 'the request was aborted' }, retryable: false };
  }
  if (thrown instanceof APIConnectionError) {
    return { error: { code: 'unavailable', message: thrown.message }, retryable: true };
  }
  if (thrown instanceof APIError) {
    const message = thrown.apiMessage ?? thrown.message;
    const status: number | undefined = thrown.status;
    const headers: Headers | undefined = thrown.headers;
    if (status === undefined) {
      // An `event: error` in the middle of a stream: only the body's type says what happened.
      const code =
        thrown.type === 'rate_limit_error'
          ? 'rate_limited'
          : thrown.type === 'overloaded_error' || thrown.type === 'api_error'
            ? 'overloaded'
            : 'unavailable';
      return { error: { code, message }, retryable: RETRYABLE_STREAM_ERROR_TYPES.has(thrown.type ?? '') };
    }
    return {
      error: { code: codeForStatus(status), message, status },
      retryable: RETRYABLE_STATUSES.has(status),
      ...(headers === undefined ? {} : { headers }),
    };
  }
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return { error: { code: 'unavailable', message }, retryable: false };
}

function codeForStatus(status: number): ModelError['code'] {
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'overloaded';
  if (status === 401 || status === 403) return 'authentication';
  // 404 (no such model), 413 (too large) and 422 are also the request's fault: retrying won't help
  if (status === 400 || status === 404 || status === 413 || status === 422) return 'invalid_request';
  return 'unavailable';
}

/**
 * How long to wait before retry number `retry` (0 for the first retry). A `retry-after-ms` or
 * `retry-after` header wins, as the server knows when it will have room; otherwise exponential
 * backoff with equal jitter (half fixed, half random) so clients that failed together do not
 * retry together. Never more than `maxDelayMs`: a turn must not hang for minutes on one header.
 */
export function backoffDelayMs(
  retry: number,
  policy: RetryPolicy,
  headers?: Headers,
  random: () => number = Math.random,
): number {
  const asked = retryAfterMs(headers);
  if (asked !== undefined) return Math.min(asked, policy.maxDelayMs);
  const exponential = Math.min(policy.baseDelayMs * 2 ** retry, policy.maxDelayMs);
  return exponential / 2 + (exponential / 2) * random();
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get('retry-after');
  if (raw === null) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits `ms`; answers false as soon as `signal` aborts (then the caller gives up instead). */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
