import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';

import type { ModelMessage, ModelRequest, ModelUsage, ToolSpec } from '@sweatpants/agent-runtime';

import { claudeAt, estimateTokens, type FakeStep, useFakeAnthropic } from '../src/testing';

const server = useFakeAnthropic();

// Long enough that the tools and system prompt alone pass the 1024-token minimum.
const SYSTEM = 'You are a calm tidying coach. One small step at a time; never judge. '.repeat(80);
const TOOLS: ToolSpec[] = ['count_items', 'confirm_done', 'time_to_wrap'].map((name) => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
}));
const USER_TURNS = ['here is my desk', 'the mugs are out', 'what about the books?'];

/** The model's side of each turn: a tool call, then after its result a reply that ends the turn. */
function answer(body: MessageCreateParams): FakeStep {
  const last = body.messages.at(-1)?.content;
  const afterResult = Array.isArray(last) && last[0]?.type === 'tool_result';
  return afterResult
    ? { kind: 'reply', content: [{ type: 'text', text: 'Good. Next, the shelf.' }] }
    : { kind: 'reply', content: [{ type: 'tool_use', name: 'count_items', input: { note: 'desk' } }] };
}

/** The notes a runner sends: the session's state, different on every call. */
const notesFor = (call: number): string => `Session state: call ${call}, ${call * 2} items sorted.`;
const notesTokens = (notes: string): number => estimateTokens({ type: 'text', text: notes });

/**
 * Drives ClaudeModel as a runner does: the system prompt and tools fixed, the history growing by
 * a tool call and its result within a turn and by a reply and the next message across turns, and
 * the notes changing on every call. Answers each call's request and the usage it reported.
 */
async function converse(stream: boolean): Promise<{ requests: ModelRequest[]; usages: ModelUsage[] }> {
  const model = claudeAt(server.fake, stream);
  const messages: ModelMessage[] = [];
  const requests: ModelRequest[] = [];
  const usages: ModelUsage[] = [];
  for (const text of USER_TURNS) {
    messages.push({ role: 'user', content: [{ type: 'text', text }] });
    for (;;) {
      const request: ModelRequest = {
        system: SYSTEM,
        tools: TOOLS,
        messages: [...messages],
        notes: notesFor(requests.length + 1),
      };
      const reply = await model.complete(request, { signal: new AbortController().signal });
      if (!reply.ok) throw new Error(reply.error.message);
      requests.push(request);
      usages.push(reply.value.usage);
      messages.push({ role: 'assistant', content: reply.value.content });
      const call = reply.value.content.find((b) => b.type === 'tool_use');
      if (!call) break;
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', toolUseId: call.id, content: '7 items' }],
      });
    }
  }
  return { requests, usages };
}

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('a conversation on Claude caches what repeats, %s', (_, stream) => {
  it('reads everything up to the previous call from the cache on every call after the first, and pays in full only for the notes', async () => {
    server.fake.respond(answer);

    const { requests, usages } = await converse(stream);

    expect(requests).toHaveLength(2 * USER_TURNS.length);
    const [first, ...later] = usages;
    expect(first!.cacheReadTokens).toBeUndefined();
    expect(first!.cacheWriteTokens).toBeGreaterThan(1024);
    later.forEach((usage, i) => {
      const previous = usages[i]!;
      // the whole prefix the previous call wrote or read, up to its last breakpoint
      expect(usage.cacheReadTokens).toBe((previous.cacheReadTokens ?? 0) + previous.cacheWriteTokens!);
      // only the new pair of messages is written
      expect(usage.cacheWriteTokens).toBeGreaterThan(0);
    });
    usages.forEach((usage, i) => {
      expect(usage.inputTokens).toBe(notesTokens(requests[i]!.notes!));
    });
  });

  it('keeps the notes out of every cached prefix: a call that changes only the notes reads all the rest', async () => {
    server.fake.respond(answer);
    const { requests, usages } = await converse(stream);
    const last = requests.at(-1)!;
    const model = claudeAt(server.fake, stream);

    const again = await model.complete(
      { ...last, notes: 'Session state: something else entirely, and longer than before.' },
      { signal: new AbortController().signal },
    );

    const before = usages.at(-1)!;
    expect(again.ok && again.value.usage).toEqual({
      inputTokens: notesTokens('Session state: something else entirely, and longer than before.'),
      outputTokens: expect.any(Number),
      cacheReadTokens: (before.cacheReadTokens ?? 0) + before.cacheWriteTokens!,
    });
  });
});
