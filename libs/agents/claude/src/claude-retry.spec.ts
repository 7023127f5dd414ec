import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';

import { backoffDelayMs, classifyFailure, sleepUnlessAborted } from './claude-retry';

const policy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8000 };

describe('backoffDelayMs', () => {
  it('doubles per retry, with jitter over the upper half', () => {
    expect([0, 1, 2].map((r) => backoffDelayMs(r, policy, undefined, () => 0))).toEqual([250, 500, 1000]);
    expect([0, 1, 2].map((r) => backoffDelayMs(r, policy, undefined, () => 1))).toEqual([500, 1000, 2000]);
  });

  it('never exceeds maxDelayMs', () => {
    expect(backoffDelayMs(10, policy, undefined, () => 1)).toBe(8000);
  });

  it('honours retry-after-ms, then retry-after in seconds or as a date, capped by maxDelayMs', () => {
    expect(backoffDelayMs(0, policy, new Headers({ 'retry-after-ms': '1200', 'retry-after': '9' }))).toBe(
      1200,
    );
    expect(backoffDelayMs(0, policy, new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(backoffDelayMs(0, policy, new Headers({ 'retry-after': '60' }))).toBe(8000);
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    expect(backoffDelayMs(0, policy, new Headers({ 'retry-after': inAMinute }))).toBe(8000);
  });

  it('falls back to backoff when the header is unreadable', () => {
    expect(backoffDelayMs(1, policy, new Headers({ 'retry-after': 'soon' }), () => 1)).toBe(1000);
  });
});

describe('classifyFailure', () => {
  const status = (s: number, type: string) =>
    classifyFailure(
      APIError.generate(s, { type: 'error', error: { type, message: 'm' } }, undefined, new Headers()),
    );

  it.each([
    [429, 'rate_limit_error', 'rate_limited', true],
    [529, 'overloaded_error', 'overloaded', true],
    [500, 'api_error', 'overloaded', true],
    [503, 'api_error', 'overloaded', true],
    [400, 'invalid_request_error', 'invalid_request', false],
    [401, 'authentication_error', 'authentication', false],
    [403, 'permission_error', 'authentication', false],
  ])('%i %s → %s (retryable: %s)', (s, type, code, retryable) => {
    const failure = status(s, type);
    expect(failure.error).toEqual({ code, message: 'm', status: s });
    expect(failure.retryable).toBe(retryable);
  });

  it('retries a connection error and reports it as unavailable', () => {
    const failure = classifyFailure(new APIConnectionError({ message: 'Connection error.' }));
    expect(failure).toEqual({
      error: { code: 'unavailable', message: 'Connection error.' },
      retryable: true,
    });
  });

  it('reports an abort as aborted and an unreadable answer as unavailable, neither retried', () => {
    expect(classifyFailure(new APIUserAbortError())).toMatchObject({
      error: { code: 'aborted' },
      retryable: false,
    });
    expect(classifyFailure(new SyntaxError('Unexpected token'))).toMatchObject({
      error: { code: 'unavailable', message: 'Unexpected token' },
      retryable: false,
    });
  });
});

describe('sleepUnlessAborted', () => {
  it('answers false at once for an aborted signal, and when the signal aborts mid-wait', async () => {
    expect(await sleepUnlessAborted(60_000, AbortSignal.abort())).toBe(false);
    const controller = new AbortController();
    const sleeping = sleepUnlessAborted(60_000, controller.signal);
    controller.abort();
    expect(await sleeping).toBe(false);
  });

  it('answers true when the wait runs out', async () => {
    expect(await sleepUnlessAborted(1, new AbortController().signal)).toBe(true);
  });
});
