import type { TreeNode } from '@sweatpants/domain';
import { modeStateOf } from '@sweatpants/agent-runtime';
import { Runner, type ConversationPort, InMemoryConversationPort } from '@sweatpants/agent-runtime/host';
import { testAgent } from '@sweatpants/agent-runtime/testing';

import { type FakeStep, kinds, openRunner, pathOf, until, useFakeAnthropic } from '../src/testing';

const server = useFakeAnthropic();

describe.each([
  ['streamed', true],
  ['not streamed', false],
])('the turn loop, %s', (_, stream) => {
  it('ends a turn on a transition tool, switches mode, and runs the next turn with its template and output', async () => {
    const { fake } = server;
    const port = new InMemoryConversationPort();
    port.create('c1');
    fake.script(
      {
        kind: 'reply',
        content: [{ type: 'tool_use', name: 'time_to_wrap', input: { reason: 'the user is tired' } }],
        stopReason: 'tool_use',
      },
      {
        kind: 'reply',
        content: [
          { type: 'text', text: 'Good work today.' },
          { type: 'tool_use', name: 'respond', input: { summary: 'cleared the desk' }, chunks: 3 },
        ],
        stopReason: 'tool_use',
      },
    );
    const tokens: string[] = [];
    const runner = await openRunner(fake, port, {
      stream,
      outbox: { token: (_at, text) => tokens.push(text) },
    });
    expect((await runner.send({ text: "I'm done", authorId: 'u1' })).ok).toBe(true);
    await runner.whenIdle();

    const path = await pathOf(port);
    expect(kinds(path)).toEqual([
      'root',
      'user',
      'assistant',
      'tool_call',
      'tool_result',
      'mode',
      'user',
      'assistant',
      'tool_call',
      'tool_result',
    ]);
    expect(modeStateOf(testAgent, path)).toEqual({
      mode: 'winding-down',
      data: { reason: 'the user is tired', summary: 'cleared the desk' },
    });
    expect(path[7]?.payload).toMatchObject({ text: 'Good work today.' });
    expect(tokens.join('')).toBe('Good work today.');
    const [first, second] = fake.requests.map(
      (r) => r.body as { tools?: { name: string }[]; stream?: boolean },
    );
    expect(first?.tools?.map((t) => t.name)).toEqual(['confirm_done', 'count_items', 'time_to_wrap']);
    expect(fake.requests[1]?.systemText).toBe(
      'You are winding down because: the user is tired.\nSummarise the session.',
    );
    expect(second?.tools?.map((t) => t.name)).toEqual(['respond']);
    expect(second?.stream === true).toBe(stream);
  });
});

describe('the turn loop', () => {
  it('reports a malformed tool input back to the model as a tool error', async () => {
    const port = new InMemoryConversationPort();
    port.create('c1');
    server.fake.script(
      { kind: 'malformed_tool_input', name: 'confirm_done', raw: '{"question": "done?' },
      { kind: 'reply', content: [{ type: 'text', text: 'Let me ask again later.' }] },
    );
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'hi', authorId: 'u1' });
    await runner.whenIdle();
    const second = server.fake.requests[1]?.body as {
      messages: { content: { type: string; is_error?: boolean }[] | string }[];
    };
    const results = second.messages
      .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
      .filter((b) => b.type === 'tool_result');
    expect(results).toEqual([expect.objectContaining({ is_error: true })]);
  });

  it('gives the fallback reply when the model stays overloaded', async () => {
    const port = new InMemoryConversationPort();
    port.create('c1');
    server.fake.script(
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
    );
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'hi', authorId: 'u1' });
    await runner.whenIdle();
    const path = (await port.path('c1')) as { ok: true; value: TreeNode[] };
    expect(server.fake.requests).toHaveLength(3);
    expect(path.value.at(-1)?.payload).toMatchObject({
      text: expect.stringContaining('overloaded'),
      fallback: 'overloaded',
    });
  });
});

describe('cancel', () => {
  it('aborts a streamed reply: the server sees the connection close, nothing follows the cancel node, and the next message runs', async () => {
    const port = new InMemoryConversationPort();
    port.create('c1');
    const tokens: string[] = [];
    server.fake.script({ kind: 'slow_stream', deltas: ['one ', 'two ', 'three ', 'four'], delayMs: 60_000 });
    const runner = await openRunner(server.fake, port, { outbox: { token: (_, text) => tokens.push(text) } });
    await runner.send({ text: 'tell me a story', authorId: 'u1' });
    await until(() => tokens.length > 0);
    const disconnected = server.fake.whenClientDisconnects();
    const cancel = await runner.cancel('u1');
    await disconnected;
    expect(cancel?.kind).toBe('cancel');
    await new Promise((r) => setTimeout(r, 50));
    const path = (await port.path('c1')) as { ok: true; value: TreeNode[] };
    expect(kinds(path.value)).toEqual(['root', 'user', 'cancel']);
    expect(runner.status).toBe('waiting');
    expect(runner.pending()).toEqual([
      expect.objectContaining({ type: 'chat', elicitId: `chat-${runner.head}` }),
    ]);

    server.fake.script({ kind: 'reply', content: [{ type: 'text', text: 'A short one, then.' }] });
    expect((await runner.send({ text: 'a short one', authorId: 'u1' })).ok).toBe(true);
    await runner.whenIdle();
    expect(kinds(((await port.path('c1')) as { ok: true; value: TreeNode[] }).value).slice(3)).toEqual([
      'user',
      'assistant',
    ]);
  });
});

describe('durable execution', () => {
  /** The conversation: a question through a tool, its answer, then a closing reply. */
  const script = (): FakeStep[] => [
    {
      kind: 'reply',
      content: [
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'confirm_done', input: { question: 'Done?' } },
      ],
      stopReason: 'tool_use',
    },
    { kind: 'reply', content: [{ type: 'text', text: 'Great, see you.' }] },
  ];

  /**
   * A port on which the process dies right after its `limit`-th write lands: the write is stored,
   * but the runner never hears back, so it does nothing more. `writes` counts the writes tried;
   * `die` fails what the runner still waits on, as the end of its process would.
   */
  function crashingAfter(
    port: InMemoryConversationPort,
    limit: number,
  ): { port: ConversationPort; writes: () => number; die: () => void } {
    let appends = 0;
    let die: () => void = () => undefined;
    const never = new Promise<never>((_, reject) => (die = () => reject(new Error('the process died'))));
    never.catch(() => undefined);
    return {
      writes: () => appends,
      die: () => die(),
      port: {
        path: (id) => port.path(id),
        pathFromSummary: (id) => port.pathFromSummary(id),
        build: (input) => port.build(input),
        requestCompaction: (input) => port.requestCompaction(input),
        returnTo: (input) => port.returnTo(input),
        queue: port.queue,
        append: async (input) => {
          appends++;
          if (appends > limit) return never;
          const landed = await port.append(input);
          return appends === limit ? never : landed;
        },
      },
    };
  }

  async function drive(runner: Runner): Promise<void> {
    // Answer whatever is asked until the turn ends.
    while (runner.pending()[0]?.type !== 'chat') {
      const [pending] = runner.elicits.list();
      if (pending) runner.answer({ elicitId: pending.elicitId, action: 'accept', content: { value: true } });
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  const comparable = (path: readonly TreeNode[]) =>
    path.map((n) => {
      // an elicit's id is fresh and a model call's start is a time, as each node's createdAt is
      const {
        elicitId: _e,
        startedAt: _s,
        ...payload
      } = n.payload as { elicitId?: string; startedAt?: string };
      return { kind: n.kind, payload };
    });

  it('rebuilt after any step, a runner finishes the turn as an uninterrupted one would, asking the model nothing twice', async () => {
    const straight = new InMemoryConversationPort();
    straight.create('c1');
    server.fake.script(...script());
    const counted = crashingAfter(straight, Infinity);
    const once = await openRunner(server.fake, counted.port);
    await once.send({ text: 'I think that is all', authorId: 'u1' });
    await drive(once);
    await once.whenIdle();
    const expected = ((await straight.path('c1')) as { ok: true; value: TreeNode[] }).value;
    const requests = server.fake.requests.length;
    expect(kinds(expected)).toEqual([
      'root',
      'user',
      'assistant',
      'tool_call',
      'elicit',
      'response',
      'tool_result',
      'assistant',
    ]);

    // Every write after the user's message is a step (a write holds the nodes of one durability
    // point); crash after each.
    for (let k = 2; k <= counted.writes(); k++) {
      await server.restart();
      server.fake.script(...script());
      const port = new InMemoryConversationPort();
      port.create('c1');
      // The user's message (write 1) goes through the runner before the crash point matters.
      const crashing = crashingAfter(port, k);
      const doomed = await openRunner(server.fake, crashing.port);
      void doomed.send({ text: 'I think that is all', authorId: 'u1' });
      while (crashing.writes() < k) {
        const [pending] = doomed.elicits.list();
        if (pending)
          doomed.answer({ elicitId: pending.elicitId, action: 'accept', content: { value: true } });
        await new Promise((r) => setTimeout(r, 5));
      }
      crashing.die();
      await doomed.close();

      const rebuilt = await openRunner(server.fake, port);
      await drive(rebuilt);
      await rebuilt.whenIdle();
      const path = ((await port.path('c1')) as { ok: true; value: TreeNode[] }).value;
      expect({ k, path: comparable(path) }).toEqual({ k, path: comparable(expected) });
      expect({ k, requests: server.fake.requests.length }).toEqual({ k, requests });
    }
  });
});
