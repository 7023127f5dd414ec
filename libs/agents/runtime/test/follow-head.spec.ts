import type { Json } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import type { LogLevel } from '../src';
import { OfflineModel } from '../src/offline';
import { Runner, silentOutbox } from '../src/host';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';
import { testAgent } from '../src/testing';

/**
 * An agent whose tools change something outside the tree says how that follows HEAD
 * (`followHead`): the runner runs it as it opens, on the state at HEAD, with the services its
 * `provide` sets, before it asks or takes anything.
 */
describe("a runner opening runs the agent's followHead", () => {
  const Outside = createContext<string[]>('test.outside');

  function open(followHead: (state: Json, conversationId: string) => Operation<void>) {
    const port = new InMemoryConversationPort();
    port.create('c1');
    const logged: { level: LogLevel; message: string }[] = [];
    const outside: string[] = [];
    const asked: string[] = [];
    const runner = Runner.open({
      conversationId: 'c1',
      agent: { ...testAgent, followHead },
      port,
      model: new OfflineModel(),
      outbox: { ...silentOutbox, elicit: (request) => asked.push(request.elicitId) },
      logs: { write: (level, message) => logged.push({ level, message }) },
      provide: function* () {
        yield* Outside.set(outside);
      },
    });
    return { runner, logged, outside, asked };
  }

  it('with the state at HEAD and the provided services, before the chat prompt is put', async () => {
    let askedBefore: number | undefined;
    const s = open(function* (state, conversationId) {
      askedBefore = s.asked.length;
      (yield* Outside.expect()).push(`${conversationId}: ${JSON.stringify(state)}`);
    });
    const runner = await s.runner;
    expect(s.outside).toEqual([`c1: ${JSON.stringify(runner.state())}`]);
    expect(askedBefore).toBe(0);
    expect(runner.pending().map((r) => r.type)).toEqual(['chat']);
  });

  it('that fails is logged, and the runner opens all the same', async () => {
    const s = open(function* () {
      throw new Error('the store is down');
    });
    const runner = await s.runner;
    expect(s.logged).toContainEqual({ level: 'error', message: 'following HEAD failed in c1' });
    expect(runner.pending().map((r) => r.type)).toEqual(['chat']);
  });
});
