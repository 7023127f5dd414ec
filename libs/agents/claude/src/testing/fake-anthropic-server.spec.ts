import { startFakeAnthropic } from './fake-anthropic-server';
import type { FakeAnthropic } from './fake-anthropic-server';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

const body = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], ...extra });

const post = (payload: string, headers: Record<string, string> = { 'x-api-key': 'k' }) =>
  fetch(`${fake.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: payload,
  });

/** The `event:` names and parsed `data:` of an SSE body, in order. */
function frames(text: string): { event: string; data: { type: string; [key: string]: unknown } }[] {
  return text
    .split('\n\n')
    .filter((f) => f !== '')
    .map((f) => {
      const [eventLine, dataLine] = f.split('\n');
      return { event: eventLine!.replace('event: ', ''), data: JSON.parse(dataLine!.replace('data: ', '')) };
    });
}

describe('the fake Anthropic server', () => {
  it('streams the SSE sequence, each event named after its type, tool input over several chunks', async () => {
    fake.script({
      kind: 'reply',
      content: [
        { type: 'text', text: 'Hi there' },
        { type: 'tool_use', id: 'toolu_1', name: 't', input: { a: 'bcdefghij' }, chunks: 3 },
      ],
    });

    const res = await post(body({ stream: true }));
    const got = frames(await res.text());

    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(got.every((f) => f.event === f.data.type)).toBe(true);
    expect(got.map((f) => f.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      ...Array(4).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const json = got
      .filter((f) => f.event === 'content_block_delta' && f.data['index'] === 1)
      .map((f) => (f.data['delta'] as { partial_json: string }).partial_json);
    expect(json).toEqual(['', '{"a":"', 'bcdefg', 'hij"}']);
    expect(got.at(-2)!.data).toMatchObject({
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 5 },
    });
  });

  it('answers a non-streaming request with the JSON message', async () => {
    fake.script({
      kind: 'reply',
      content: [{ type: 'text', text: 'Hi' }],
      usage: { inputTokens: 3, outputTokens: 1 },
    });

    const res = await post(body());

    expect(await res.json()).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 3, output_tokens: 1 },
    });
  });

  it('sends scripted errors in the API error shape, with retry-after headers', async () => {
    fake.script({ kind: 'error', status: 429, retryAfterSeconds: 2, retryAfterMs: 1500 });

    const res = await post(body());

    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.headers.get('retry-after-ms')).toBe('1500');
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'scripted rate_limit_error' },
    });
  });

  it('refuses a request without a key (401) without taking a step, and records it', async () => {
    fake.script({ kind: 'reply', content: [] });

    const res = await post(body(), {});

    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('authentication_error');
    expect(fake.pendingSteps).toBe(1);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.apiKey).toBeUndefined();
  });

  it('takes the key from authorization: Bearer too, as SDK 1.x sends it', async () => {
    fake.script({ kind: 'reply', content: [] });

    const res = await post(body(), { authorization: 'Bearer sk-b' });

    expect(res.status).toBe(200);
    expect(fake.requests[0]!.apiKey).toBe('sk-b');
  });

  it('fails an unscripted request loudly with a 500 naming the cause', async () => {
    const res = await post(body());

    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/did not script/);
  });

  it('answers 400 for a body without model, max_tokens and messages, and 404 off the route', async () => {
    expect((await post(JSON.stringify({ model: 'm' }))).status).toBe(400);
    expect((await fetch(`${fake.url}/v1/models`)).status).toBe(404);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/messages', '/v1/models']);
  });

  it('refuses a stream-only step for a non-streaming request', async () => {
    fake.script({ kind: 'slow_stream', deltas: ['a'], delayMs: 1 });

    expect((await post(body())).status).toBe(500);
  });

  it('counts a client that closes a stream early', async () => {
    fake.script({ kind: 'slow_stream', deltas: ['a', 'b'], delayMs: 10_000 });
    const controller = new AbortController();

    const res = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'k' },
      body: body({ stream: true }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();

    await fake.whenClientDisconnects();
    expect(fake.closedEarly).toBe(1);
  });
});
