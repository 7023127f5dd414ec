import { CACHE_TTL_MS, estimateTokens } from './fake-anthropic-cache';
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
      usage: { inputTokens: 10, outputTokens: 5 },
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

  it("streams on a model's clock when given one: the first words after the first-token time, the rest at its rate", async () => {
    const timed = await startFakeAnthropic({ timing: { firstTokenMs: 120, tokensPerSecond: 200 } });
    try {
      const text = 'one two three four five six seven eight nine ten';
      timed.script({ kind: 'reply', content: [{ type: 'text', text }] });
      const start = performance.now();
      const res = await fetch(`${timed.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'k' },
        body: body({ stream: true }),
      });
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      let received = '';
      let firstWordAt: number | undefined;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += decoder.decode(value);
        if (firstWordAt === undefined && received.includes('text_delta'))
          firstWordAt = performance.now() - start;
      }
      const total = performance.now() - start;
      // a lower bound only: the fake waits at least this long, however busy the machine is
      const afterFirst = text
        .split(' ')
        .slice(1)
        .reduce((sum, w) => sum + estimateTokens(` ${w}`), 0);
      expect(firstWordAt).toBeGreaterThanOrEqual(120 - 5);
      expect(total).toBeGreaterThanOrEqual(120 + (afterFirst / 200) * 1000 - 5);
      expect(frames(received).filter((f) => f.data.type === 'content_block_delta')).toHaveLength(10);
    } finally {
      await timed.close();
    }
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

describe("the fake's prompt cache", () => {
  const CACHED = { type: 'ephemeral' };
  const SYSTEM = 'You help people tidy a room. '.repeat(200);
  const TOOL = { name: 'count_items', description: 'Count', input_schema: { type: 'object' } };

  /** A request with the usual breakpoints: the tool, the system prompt, the last user message. */
  const cachedBody = ({ system = SYSTEM, question = 'where do I start?', notes = 'Items so far: 0' } = {}) =>
    JSON.stringify({
      model: 'm',
      max_tokens: 10,
      tools: [{ ...TOOL, cache_control: CACHED }],
      system: [{ type: 'text', text: system, cache_control: CACHED }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: question, cache_control: CACHED },
            { type: 'text', text: notes },
          ],
        },
      ],
    });
  const tokens = {
    tool: estimateTokens(TOOL),
    system: estimateTokens({ type: 'text', text: SYSTEM }),
    question: estimateTokens({ type: 'text', text: 'where do I start?' }),
    notes: estimateTokens({ type: 'text', text: 'Items so far: 0' }),
  };
  const wholePrefix = tokens.tool + tokens.system + tokens.question;

  type WireUsage = {
    input_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
  };
  /** Posts `payload` (not streamed) and reads the usage the fake reports. */
  const usageOf = async (f: FakeAnthropic, payload: string): Promise<WireUsage> => {
    const res = await fetch(`${f.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: payload,
    });
    return ((await res.json()) as { usage: WireUsage }).usage;
  };
  const reply = { kind: 'reply' as const, content: [{ type: 'text' as const, text: 'ok' }] };

  it('writes the prefix up to the last breakpoint, and a second call with the same prefix reads it', async () => {
    fake.respond(() => reply);

    const first = await usageOf(fake, cachedBody());
    const second = await usageOf(fake, cachedBody({ notes: 'Items so far: 1' }));

    expect(tokens.system).toBeGreaterThan(1024);
    expect(first).toMatchObject({
      input_tokens: tokens.notes,
      cache_creation_input_tokens: wholePrefix,
      cache_read_input_tokens: 0,
    });
    expect(second).toMatchObject({
      input_tokens: tokens.notes,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: wholePrefix,
    });
  });

  it('reads the longest cached prefix and writes from there: a new question reads the tools and system prompt', async () => {
    fake.respond(() => reply);

    await usageOf(fake, cachedBody());
    const next = await usageOf(fake, cachedBody({ question: 'and then?' }));

    expect(next).toMatchObject({
      cache_read_input_tokens: tokens.tool + tokens.system,
      cache_creation_input_tokens: estimateTokens({ type: 'text', text: 'and then?' }),
      input_tokens: tokens.notes,
    });
  });

  it('reads a prefix written at an earlier breakpoint within 20 blocks of a later one, and not beyond', async () => {
    fake.respond(() => reply);
    /** The question, then `turns` more exchanges, the breakpoint on the last message only. */
    const conversation = (turns: number) => {
      const messages: { role: string; content: { type: string; text: string; cache_control?: object }[] }[] =
        [{ role: 'user', content: [{ type: 'text', text: 'where do I start?' }] }];
      for (let i = 1; i <= turns; i++)
        messages.push(
          { role: 'assistant', content: [{ type: 'text', text: `step ${i}` }] },
          { role: 'user', content: [{ type: 'text', text: `done ${i}` }] },
        );
      const last = messages.at(-1)!.content[0]!;
      last.cache_control = CACHED;
      return JSON.stringify({
        model: 'm',
        max_tokens: 10,
        system: [{ type: 'text', text: SYSTEM }],
        messages,
      });
    };
    await usageOf(fake, conversation(0));
    const near = await usageOf(fake, conversation(2));
    const far = await usageOf(fake, conversation(14));

    const upToQuestion = tokens.system + tokens.question;
    expect(near.cache_read_input_tokens).toBe(upToQuestion);
    expect(near.cache_creation_input_tokens).toBeGreaterThan(0);
    // 28 blocks after the latest written prefix (conversation(2)'s): out of the lookback's reach
    expect(far.cache_read_input_tokens).toBe(0);
  });

  it('reads nothing once the system prompt changed: every later prefix differs', async () => {
    fake.respond(() => reply);

    const edited = SYSTEM.replace('tidy', 'sort');
    await usageOf(fake, cachedBody());
    const changed = await usageOf(fake, cachedBody({ system: edited }));

    expect(changed).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens:
        tokens.tool + estimateTokens({ type: 'text', text: edited }) + tokens.question,
    });
  });

  it('neither writes nor reads a prefix shorter than the minimum', async () => {
    const short = await startFakeAnthropic({ minCacheTokens: wholePrefix + 1 });
    try {
      short.respond(() => reply);
      const first = await usageOf(short, cachedBody());
      const second = await usageOf(short, cachedBody());

      for (const usage of [first, second]) {
        expect(usage).toMatchObject({
          input_tokens: wholePrefix + tokens.notes,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        });
      }
    } finally {
      await short.close();
    }
  });

  it('forgets an entry 5 minutes after it was last written or read, and a read keeps it alive', async () => {
    let now = 0;
    const clocked = await startFakeAnthropic({ now: () => now });
    try {
      clocked.respond(() => reply);
      await usageOf(clocked, cachedBody());
      now += CACHE_TTL_MS - 1;
      const refreshed = await usageOf(clocked, cachedBody());
      now += CACHE_TTL_MS - 1;
      const stillThere = await usageOf(clocked, cachedBody());
      now += CACHE_TTL_MS;
      const expired = await usageOf(clocked, cachedBody());

      expect(refreshed.cache_read_input_tokens).toBe(wholePrefix);
      expect(stillThere.cache_read_input_tokens).toBe(wholePrefix);
      expect(expired).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: wholePrefix });
    } finally {
      await clocked.close();
    }
  });

  it('reports the cache counts in message_start and message_delta when streaming', async () => {
    fake.respond(() => reply);
    await usageOf(fake, cachedBody());

    const res = await post(JSON.stringify({ ...JSON.parse(cachedBody()), stream: true }));
    const got = frames(await res.text());

    const counts = {
      cache_read_input_tokens: wholePrefix,
      cache_creation_input_tokens: 0,
      input_tokens: tokens.notes,
    };
    expect(got[0]!.data).toMatchObject({ message: { usage: { ...counts, output_tokens: 1 } } });
    expect(got.at(-2)!.data).toMatchObject({ usage: counts });
  });

  it('refuses a request with more than 4 cache_control blocks, as the API does', async () => {
    fake.script(reply);
    const marked = { type: 'text', text: 'x', cache_control: CACHED };

    const res = await post(body({ system: [marked, marked, marked, marked, marked] }));

    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Found 5/);
    expect(fake.pendingSteps).toBe(1);
  });

  it('answers from the responder, given the body, once the script is empty', async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'scripted' }] });
    fake.respond((request) => ({
      kind: 'reply',
      content: [{ type: 'text', text: `you sent ${request.messages.length} message(s)` }],
    }));

    const texts = [];
    for (let i = 0; i < 2; i++) {
      const res = await post(body());
      texts.push(((await res.json()) as { content: { text: string }[] }).content[0]!.text);
    }

    expect(texts).toEqual(['scripted', 'you sent 1 message(s)']);
  });
});
