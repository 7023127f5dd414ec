import type { Json } from '@sweatpants/domain';
import { compactAfter, compactAtTokens } from '@sweatpants/agent-runtime';
import { type Outbox, InMemoryConversationPort } from '@sweatpants/agent-runtime/host';
import { testAgent } from '@sweatpants/agent-runtime/testing';

import { type FakeStep, kinds, openRunner, pathOf, useFakeAnthropic } from '../src/testing';

const server = useFakeAnthropic();

const say = (text: string): FakeStep => ({ kind: 'reply', content: [{ type: 'text', text }] });

function conversation(): InMemoryConversationPort {
  const port = new InMemoryConversationPort();
  port.create('c1');
  return port;
}

describe('the model, through the runner', () => {
  it('retries a 429 and the turn goes on with the reply that follows', async () => {
    const port = conversation();
    server.fake.script({ kind: 'error', status: 429, retryAfterMs: 1 }, say('There you go.'));
    const runner = await openRunner(server.fake, port);

    await runner.send({ text: 'hi', authorId: 'u1' });
    await runner.whenIdle();

    expect(server.fake.requests).toHaveLength(2);
    const path = await pathOf(port);
    expect(kinds(path)).toEqual(['root', 'user', 'assistant']);
    expect(path[2]?.payload).toMatchObject({ text: 'There you go.' });
  });
});

describe('compaction', () => {
  it("is asked for once, with the current HEAD, when the path since the last summary passes what the agent's compactAfter plugin allows", async () => {
    const port = conversation();
    server.fake.script(say('One.'), say('Two.'));
    const runner = await openRunner(server.fake, port, {
      agent: { ...testAgent, plugins: [compactAfter(2)] },
    });

    await runner.send({ text: 'first', authorId: 'u1' });
    await runner.whenIdle();
    expect(port.inspect('c1').compactionRequests).toEqual([]);

    const second = await runner.send({ text: 'second', authorId: 'u1' });
    await runner.whenIdle();

    // root, first, One., second: three nodes since the (absent) summary, over the threshold of 2
    expect(port.inspect('c1').compactionRequests).toEqual([second.ok && second.value.id]);
  });
});

describe('compaction by tokens', () => {
  it('is asked for at the first turn after a call whose request, with its reply, passed the budget', async () => {
    const port = conversation();
    // what the API reports: the second reply read a long cached history
    server.fake.script(
      {
        kind: 'reply',
        content: [{ type: 'text', text: 'One.' }],
        usage: { inputTokens: 300, outputTokens: 20 },
      },
      {
        kind: 'reply',
        content: [{ type: 'text', text: 'Two.' }],
        usage: { inputTokens: 300, outputTokens: 20, cacheReadTokens: 4_800 },
      },
      say('Three.'),
    );
    const runner = await openRunner(server.fake, port, {
      agent: { ...testAgent, plugins: [compactAtTokens(5_000)] },
    });

    await runner.send({ text: 'first', authorId: 'u1' });
    await runner.whenIdle();
    await runner.send({ text: 'second', authorId: 'u1' });
    await runner.whenIdle();
    // 320 tokens then, under the budget: nothing asked, however many nodes
    expect(port.inspect('c1').compactionRequests).toEqual([]);

    const third = await runner.send({ text: 'third', authorId: 'u1' });
    await runner.whenIdle();
    // the last call sent 5,100 and received 20: the next request passes 5,000
    expect(port.inspect('c1').compactionRequests).toEqual([third.ok && third.value.id]);
  });
});

describe('notify and log', () => {
  it('reach the outbox and the log sink, and the notice is recorded as a notify node', async () => {
    const port = conversation();
    server.fake.script(
      {
        kind: 'reply',
        content: [{ type: 'tool_use', id: 'toolu_c', name: 'count_items', input: { n: 3 } }],
      },
      say('Three things.'),
    );
    const notices: Parameters<Outbox['notify']>[0][] = [];
    const logged: [string, string, Json | undefined][] = [];
    const runner = await openRunner(server.fake, port, {
      outbox: { notify: (notice) => notices.push(notice) },
      logs: { write: (level, message, fields) => logged.push([level, message, fields]) },
    });

    await runner.send({ text: 'count the desk', authorId: 'u1' });
    await runner.whenIdle();

    const path = await pathOf(port);
    expect(kinds(path)).toEqual([
      'root',
      'user',
      'assistant',
      'tool_call',
      'notify',
      'tool_result',
      'assistant',
    ]);
    const notice = path[4];
    expect(notice).toMatchObject({
      authorId: 'agent:test',
      payload: { message: 'Counted 3', progress: 3, total: 10 },
    });
    expect(notices).toEqual([{ nodeId: notice?.id, message: 'Counted 3', progress: 3, total: 10 }]);
    expect(logged).toEqual([['info', 'counted', { n: 3 }]]);
  });
});
