import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';

import type { ContentBlock, ModelMessage, ModelRequest, ToolSpec } from '@sweatpants/agent-runtime';

import { startFakeAnthropic, type FakeAnthropic } from './testing';
import { claudeConfig, type ClaudeConfig } from './claude-config';
import { ClaudeModel } from './claude-model';

// Not the default model: the SDK warns on every request naming a deprecated one.
const MODEL = 'claude-sonnet-4-6';
const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const ask = (text: string): ModelRequest => ({
  system: 'You help people tidy a room.',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  tools: [],
});

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

/** The stored photos a test's model can read, by sha-256 (the api passes its blob store's read). */
const PHOTO_SHA = 'a'.repeat(64);
const stored = new Map([[PHOTO_SHA, Buffer.from(PNG_1PX, 'base64')]]);

const modelFor = (overrides: Partial<ClaudeConfig> = {}): ClaudeModel =>
  new ClaudeModel(
    {
      ...claudeConfig({ apiKey: 'sk-test', baseURL: fake.url, model: MODEL }),
      // tiny waits: the tests count attempts, never time them
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 5 },
      ...overrides,
    },
    { photoBytes: async (sha) => stored.get(sha) ?? null },
  );

const live = (): AbortSignal => new AbortController().signal;

const CACHED = { type: 'ephemeral' };

describe('ClaudeModel against the fake Anthropic server', () => {
  it('streams a text reply: onText gets the deltas in order, the reply has all of it', async () => {
    fake.script({
      kind: 'reply',
      content: [{ type: 'text', text: 'Start with the desk, then the shelf.' }],
      usage: { inputTokens: 31, outputTokens: 9 },
    });
    const deltas: string[] = [];

    const reply = await modelFor().complete(ask('where do I start?'), {
      signal: live(),
      onText: (d) => deltas.push(d),
    });

    expect(deltas).toEqual(['Start', ' with', ' the', ' desk,', ' then', ' the', ' shelf.']);
    expect(reply).toEqual({
      ok: true,
      value: {
        content: [{ type: 'text', text: 'Start with the desk, then the shelf.' }],
        stopReason: 'end_turn',
        usage: { inputTokens: 31, outputTokens: 9 },
        model: MODEL,
      },
    });
  });

  it('assembles a tool_use whose input arrives in several input_json_delta chunks', async () => {
    const input = { item: 'mug', choices: [{ label: 'Kitchen' }, { label: 'Donate' }], reason: 'chipped' };
    fake.script({
      kind: 'reply',
      content: [
        { type: 'text', text: 'Let me ask.' },
        { type: 'tool_use', id: 'toolu_01', name: 'propose_disposition', input, chunks: 5 },
      ],
    });

    const reply = await modelFor().complete(ask('a mug'), { signal: live() });

    expect(reply.ok && reply.value.content).toEqual([
      { type: 'text', text: 'Let me ask.' },
      { type: 'tool_use', id: 'toolu_01', name: 'propose_disposition', input },
    ]);
    expect(reply.ok && reply.value.stopReason).toBe('tool_use');
  });

  it('keeps a tool call whose input is not JSON, marked __malformed with the raw text', async () => {
    fake.script({ kind: 'malformed_tool_input', id: 'toolu_02', name: 'confirm_done', raw: '{"done": tru' });

    const reply = await modelFor().complete(ask('done?'), { signal: live() });

    expect(reply.ok && reply.value.content).toEqual([
      { type: 'tool_use', id: 'toolu_02', name: 'confirm_done', input: { __malformed: '{"done": tru' } },
    ]);
  });

  it('sends system, tools, model, max_tokens and stream: true, and maps every block kind (a stored photo as its bytes)', async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });
    const request: ModelRequest = {
      system: 'You help people tidy a room.',
      tools: [
        {
          name: 'confirm_done',
          description: 'Ask whether the session is over',
          inputSchema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
        },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here is my desk' },
            { type: 'image', mediaType: 'image/png', sha256: PHOTO_SHA },
            { type: 'image', mediaType: 'image/jpeg', sha256: 'b'.repeat(64) },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_9', name: 'confirm_done', input: { prompt: 'Done?' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'toolu_9', content: 'no answer', isError: true }],
        },
      ],
    };

    await modelFor({ maxTokens: 1234 }).complete(request, { signal: live() });

    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.apiKey).toBe('sk-test');
    expect(fake.requests[0]!.body).toEqual({
      model: MODEL,
      max_tokens: 1234,
      stream: true,
      system: [{ type: 'text', text: 'You help people tidy a room.', cache_control: CACHED }],
      tools: [
        {
          name: 'confirm_done',
          description: 'Ask whether the session is over',
          input_schema: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
          cache_control: CACHED,
        },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'here is my desk' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } },
            {
              type: 'text',
              text: '(a image/jpeg photo was sent here; it could not be loaded)',
              cache_control: CACHED,
            },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_9', name: 'confirm_done', input: { prompt: 'Done?' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_9',
              content: 'no answer',
              is_error: true,
              cache_control: CACHED,
            },
          ],
        },
      ],
    });
  });

  it('sends the images a tool returned inside its result, after its words, as their bytes', async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });
    const request: ModelRequest = {
      system: 'You use tools.',
      tools: [],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'show me the logo' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_logo', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              toolUseId: 'toolu_1',
              content: 'The logo: [image image/png, shown to the person]',
              images: [{ type: 'image', mediaType: 'image/png', sha256: PHOTO_SHA }],
            },
          ],
        },
      ],
    };

    await modelFor().complete(request, { signal: live() });

    const sent = fake.requests[0]!.body?.messages as { content: unknown[] }[];
    expect(sent.at(-1)?.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_1',
        content: [
          { type: 'text', text: 'The logo: [image image/png, shown to the person]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_1PX } },
        ],
        cache_control: CACHED,
      },
    ]);
  });

  it("uses the request's own maxTokens over the configured one", async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });

    await modelFor({ maxTokens: 1234 }).complete({ ...ask('short'), maxTokens: 50 }, { signal: live() });

    expect(fake.requests[0]!.body?.max_tokens).toBe(50);
  });

  it("asks the request's own model over the configured one (a smaller model for summaries)", async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });

    await modelFor({}).complete({ ...ask('summarise'), model: 'claude-haiku-4-5' }, { signal: live() });

    expect(fake.requests[0]!.body?.model).toBe('claude-haiku-4-5');
  });

  it('retries a 429 and answers with the reply that follows', async () => {
    fake.script(
      { kind: 'error', status: 429, retryAfterMs: 1 },
      { kind: 'reply', content: [{ type: 'text', text: 'there you go' }] },
    );

    const reply = await modelFor().complete(ask('hi'), { signal: live() });

    expect(reply.ok && reply.value.content).toEqual([{ type: 'text', text: 'there you go' }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up on 529 after exactly 3 requests: overloaded', async () => {
    fake.script(...[1, 2, 3].map(() => ({ kind: 'error' as const, status: 529 })));

    const reply = await modelFor().complete(ask('hi'), { signal: live() });

    expect(reply).toEqual({
      ok: false,
      error: { code: 'overloaded', message: 'scripted overloaded_error', status: 529 },
    });
    expect(fake.requests).toHaveLength(3);
  });

  it('asks the fallback model when the model stays overloaded, and answers with its reply', async () => {
    fake.script(...[1, 2, 3].map(() => ({ kind: 'error' as const, status: 529 })), {
      kind: 'reply',
      content: [{ type: 'text', text: 'the smaller model says hi' }],
    });

    const reply = await modelFor({ fallbackModel: 'claude-haiku-4-5' }).complete(ask('hi'), {
      signal: live(),
    });

    expect(reply.ok && reply.value).toMatchObject({
      content: [{ type: 'text', text: 'the smaller model says hi' }],
      model: 'claude-haiku-4-5',
    });
    expect(fake.requests.map((r) => r.body?.model)).toEqual([MODEL, MODEL, MODEL, 'claude-haiku-4-5']);
  });

  it('does not ask the fallback model for a request the model refused as wrong', async () => {
    fake.script({ kind: 'error', status: 400, message: 'no good' });

    const reply = await modelFor({ fallbackModel: 'claude-haiku-4-5' }).complete(ask('hi'), {
      signal: live(),
    });

    expect(reply.ok || reply.error.code).toBe('invalid_request');
    expect(fake.requests).toHaveLength(1);
  });

  it('gives up on 429 after the retries: rate_limited', async () => {
    fake.script(...[1, 2, 3].map(() => ({ kind: 'error' as const, status: 429, retryAfterSeconds: 30 })));

    // retry-after asks for 30 s; maxDelayMs (5 ms here) caps it, or this test would time out
    const reply = await modelFor().complete(ask('hi'), { signal: live() });

    expect(reply.ok || reply.error.code).toBe('rate_limited');
    expect(fake.requests).toHaveLength(3);
  });

  it.each([
    [400, 'invalid_request'],
    [401, 'authentication'],
    [403, 'authentication'],
  ] as const)('does not retry a %i: %s', async (status, code) => {
    fake.script({ kind: 'error', status, message: 'no good' });

    const reply = await modelFor().complete(ask('hi'), { signal: live() });

    expect(reply).toEqual({ ok: false, error: { code, message: 'no good', status } });
    expect(fake.requests).toHaveLength(1);
  });

  it('answers aborted when cancelled mid-stream, and the server sees the connection close', async () => {
    // 10 s between deltas: only an abort that closes the connection ends this within the test's timeout
    fake.script({ kind: 'slow_stream', deltas: ['one', ' two', ' three'], delayMs: 10_000 });
    const controller = new AbortController();
    const deltas: string[] = [];

    const reply = await modelFor().complete(ask('count'), {
      signal: controller.signal,
      onText: (d) => {
        deltas.push(d);
        controller.abort();
      },
    });

    expect(reply).toEqual({ ok: false, error: { code: 'aborted', message: expect.any(String) } });
    expect(deltas).toEqual(['one']);
    await fake.whenClientDisconnects();
    expect(fake.closedEarly).toBe(1);
    expect(fake.requests).toHaveLength(1);
  });

  it('answers aborted when cancelled during the backoff, without another request', async () => {
    fake.script({ kind: 'error', status: 529, retryAfterSeconds: 60 });
    const controller = new AbortController();
    const model = modelFor({ retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 60_000 } });

    const pending = model.complete(ask('hi'), { signal: controller.signal });
    await until(() => fake.requests.length === 1);
    controller.abort();

    // the backoff would be 60 s: only the abort can end it within the test's timeout
    expect(await pending).toEqual({ ok: false, error: { code: 'aborted', message: expect.any(String) } });
    expect(fake.requests).toHaveLength(1);
  });

  it('answers aborted at once for a signal already aborted, sending nothing', async () => {
    const reply = await modelFor().complete(ask('hi'), { signal: AbortSignal.abort() });

    expect(reply.ok || reply.error.code).toBe('aborted');
    expect(fake.requests).toHaveLength(0);
  });

  it('retries an SSE error event that came before any text', async () => {
    fake.script(
      { kind: 'stream_error', type: 'overloaded_error' },
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
    );

    const reply = await modelFor().complete(ask('hi'), { signal: live() });

    expect(reply.ok && reply.value.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(fake.requests).toHaveLength(2);
  });

  it('does not retry an SSE error event after text was shown (it would show twice)', async () => {
    fake.script({
      kind: 'stream_error',
      type: 'overloaded_error',
      textBefore: 'Let me',
      message: 'Overloaded',
    });

    const reply = await modelFor().complete(ask('hi'), { signal: live() });

    expect(reply).toEqual({ ok: false, error: { code: 'overloaded', message: 'Overloaded' } });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a request the test did not script loudly, naming that', async () => {
    const reply = await modelFor({ retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 5 } }).complete(
      ask('hi'),
      {
        signal: live(),
      },
    );

    expect(reply.ok).toBe(false);
    expect(!reply.ok && reply.error.message).toMatch(/did not script/);
  });

  it('answers unavailable when nothing listens at the base URL', async () => {
    const gone = await startFakeAnthropic();
    await gone.close();

    const reply = await modelFor({ baseURL: gone.url }).complete(ask('hi'), { signal: live() });

    expect(reply.ok || reply.error.code).toBe('unavailable');
  });
});

describe('ClaudeModel with stream: false', () => {
  it('sends one plain request and maps its text and tool calls, giving onText the whole text', async () => {
    const input = { item: 'mug', reason: 'chipped' };
    fake.script({
      kind: 'reply',
      content: [
        { type: 'text', text: 'Let me ask.' },
        { type: 'tool_use', id: 'toolu_02', name: 'propose_disposition', input },
      ],
      usage: { inputTokens: 12, outputTokens: 7 },
    });
    const deltas: string[] = [];

    const reply = await modelFor({ stream: false }).complete(ask('a mug'), {
      signal: live(),
      onText: (d) => deltas.push(d),
    });

    expect(fake.requests[0]!.body?.stream).not.toBe(true);
    expect(deltas).toEqual(['Let me ask.']);
    expect(reply).toEqual({
      ok: true,
      value: {
        content: [
          { type: 'text', text: 'Let me ask.' },
          { type: 'tool_use', id: 'toolu_02', name: 'propose_disposition', input },
        ],
        stopReason: 'tool_use',
        usage: { inputTokens: 12, outputTokens: 7 },
        model: MODEL,
      },
    });
  });

  it('retries a 429 the same way', async () => {
    fake.script(
      { kind: 'error', status: 429, retryAfterMs: 1 },
      { kind: 'reply', content: [{ type: 'text', text: 'there you go' }] },
    );

    const reply = await modelFor({ stream: false }).complete(ask('hi'), { signal: live() });

    expect(reply.ok && reply.value.content).toEqual([{ type: 'text', text: 'there you go' }]);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('ClaudeModel and the prompt cache', () => {
  const tool = (name: string): ToolSpec => ({
    name,
    description: `the ${name} tool`,
    inputSchema: { type: 'object', properties: {} },
  });
  const text = (t: string): ContentBlock => ({ type: 'text', text: t });
  const say = (role: ModelMessage['role'], ...content: ContentBlock[]): ModelMessage => ({ role, content });
  // the second turn's second call: a reply and a user message, then a tool call and its result
  const conversation: ModelRequest = {
    system: 'You help people tidy a room.',
    tools: [tool('confirm_done'), tool('count_items')],
    messages: [
      say('user', text('here is my desk'), text('where do I start?')),
      say('assistant', text('With the mugs.')),
      say('user', text('done, what next?')),
      say('assistant', text('Let me count.'), {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'count_items',
        input: {},
      }),
      say('user', { type: 'tool_result', toolUseId: 'toolu_1', content: '12' }),
    ],
  };

  it('marks the last tool, the system prompt, and the last block of the last two user messages: four breakpoints', async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });

    await modelFor().complete(conversation, { signal: live() });

    expect(breakpointsIn(fake.requests[0]!.body)).toEqual([
      'tools[1]',
      'system[0]',
      'messages[2].content[0]',
      'messages[4].content[0]',
    ]);
  });

  it("puts the previous call's last breakpoint where this call's earlier one is (the cached prefix it reads)", async () => {
    fake.script(
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
    );
    const before = { ...conversation, messages: conversation.messages.slice(0, 3) };

    await modelFor().complete(before, { signal: live() });
    await modelFor().complete(conversation, { signal: live() });

    const [first, second] = fake.requests.map((r) => breakpointsIn(r.body));
    expect(first).toEqual(['tools[1]', 'system[0]', 'messages[0].content[1]', 'messages[2].content[0]']);
    expect(second).toContain(first!.at(-1));
  });

  it('sends a first message with one history breakpoint, and none for an empty system prompt or no tools', async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });

    await modelFor().complete({ ...ask('hi'), system: '' }, { signal: live() });

    expect(fake.requests[0]!.body).not.toHaveProperty('system');
    expect(fake.requests[0]!.body).not.toHaveProperty('tools');
    expect(breakpointsIn(fake.requests[0]!.body)).toEqual(['messages[0].content[0]']);
  });

  it("sends the notes as the last user message's last block, after its breakpoint, so no cached prefix holds them", async () => {
    fake.script({ kind: 'reply', content: [{ type: 'text', text: 'ok' }] });

    await modelFor().complete({ ...conversation, notes: 'Items counted so far: 3' }, { signal: live() });

    const body = fake.requests[0]!.body!;
    expect(body.messages).toHaveLength(5);
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: '12', cache_control: CACHED },
        { type: 'text', text: 'Items counted so far: 3' },
      ],
    });
    expect(breakpointsIn(body).at(-1)).toBe('messages[4].content[0]');
  });

  it('sends no block for empty notes, and notes after an assistant message as a user message of their own', async () => {
    fake.script(
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
    );
    const prefilled: ModelRequest = {
      ...ask('hi'),
      messages: [...ask('hi').messages, say('assistant', text('So'))],
    };

    await modelFor().complete({ ...ask('hi'), notes: '' }, { signal: live() });
    await modelFor().complete({ ...prefilled, notes: 'the state' }, { signal: live() });

    expect(fake.requests[0]!.body!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: CACHED }] },
    ]);
    expect(fake.requests[1]!.body!.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'the state' }],
    });
  });

  it.each([
    ['streamed', true],
    ['not streamed', false],
  ])('maps cache writes and reads into the usage, %s', async (_, stream) => {
    fake.script({
      kind: 'reply',
      content: [{ type: 'text', text: 'ok' }],
      usage: { inputTokens: 20, outputTokens: 7, cacheWriteTokens: 150, cacheReadTokens: 3000 },
    });

    const reply = await modelFor({ stream }).complete(ask('hi'), { signal: live() });

    expect(reply.ok && reply.value.usage).toEqual({
      inputTokens: 20,
      outputTokens: 7,
      cacheWriteTokens: 150,
      cacheReadTokens: 3000,
    });
  });

  it.each([
    ['streamed', true],
    ['not streamed', false],
  ])('leaves cache counts of 0 out of the usage, %s', async (_, stream) => {
    fake.script({
      kind: 'reply',
      content: [{ type: 'text', text: 'ok' }],
      usage: { inputTokens: 20, outputTokens: 7, cacheWriteTokens: 0, cacheReadTokens: 0 },
    });

    const reply = await modelFor({ stream }).complete(ask('hi'), { signal: live() });

    expect(reply.ok && reply.value.usage).toEqual({ inputTokens: 20, outputTokens: 7 });
  });

  it("reports the fake's own count when the step scripts none: a repeated request reads what the first wrote", async () => {
    const long: ModelRequest = { ...conversation, system: 'Be calm. '.repeat(600) };
    fake.script(
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
      { kind: 'reply', content: [{ type: 'text', text: 'ok' }] },
    );

    const first = await modelFor().complete(long, { signal: live() });
    const second = await modelFor().complete(long, { signal: live() });

    const written = first.ok ? first.value.usage.cacheWriteTokens : undefined;
    expect(written).toBeGreaterThan(1024);
    expect(first.ok && first.value.usage.cacheReadTokens).toBeUndefined();
    expect(second.ok && second.value.usage).toEqual({
      inputTokens: 0,
      outputTokens: expect.any(Number),
      cacheReadTokens: written,
    });
  });
});

/** Where a request body's cache_control marks are, in the cache's order: tools, system, messages. */
function breakpointsIn(body: MessageCreateParams | undefined): string[] {
  const marked = (b: object): boolean => 'cache_control' in b && b.cache_control != null;
  const system = typeof body?.system === 'string' ? [] : (body?.system ?? []);
  return [
    ...(body?.tools ?? []).flatMap((t, i) => (marked(t) ? [`tools[${i}]`] : [])),
    ...system.flatMap((b, i) => (marked(b) ? [`system[${i}]`] : [])),
    ...(body?.messages ?? []).flatMap((m, i) =>
      typeof m.content === 'string'
        ? []
        : m.content.flatMap((b, j) => (marked(b) ? [`messages[${i}].content[${j}]`] : [])),
    ),
  ];
}

/** Resolves once `condition` holds, checking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
