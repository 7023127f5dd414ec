import { InMemoryConversationPort, Runner } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { testAgent } from '@sweatpants/agent-runtime/testing';
import type { ConversationRecord } from '@sweatpants/domain';
import { createScope } from 'effection';
import { ApiError } from '../errors/api-error';
import { ConversationActor, statusOf, useConversationActor, type ActorHost } from './conversation-actor';
import type { ConversationEvents } from './conversation-events';
import { RunnerOutbox } from './runner-outbox';

/** Work that records when it starts and ends, and ends when the test says. */
function step(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const work = async () => {
    log.push(`${name} starts`);
    await done;
    log.push(`${name} ends`);
    return name;
  };
  return { work, finish: () => finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

const record: ConversationRecord = {
  id: 'c1',
  agent: 'tidying',
  title: '',
  ownerId: 'u1',
  head: 'root',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
  archivedAt: null,
};

/**
 * Actors in a scope of their own, over an in-memory conversation whose runner the test agent
 * drives with the offline model; the host records what the actor asks of the process.
 */
function actors() {
  const port = new InMemoryConversationPort();
  port.create('c1');
  const emitted: string[] = [];
  const events = { emit: (event: string) => emitted.push(event) } as unknown as ConversationEvents;
  const told = { opened: 0, closed: 0, released: 0, forgotten: 0 };
  const host: ActorHost = {
    open: async () => {
      told.opened++;
      const outbox = new RunnerOutbox('c1', events);
      const runner = await Runner.open({
        conversationId: 'c1',
        agent: testAgent,
        port,
        model: new OfflineModel(),
        outbox,
      });
      return { runner, outbox };
    },
    storedHead: async () => 'stored-head',
    releaseLease: async () => {
      told.released++;
    },
    events,
    runnerClosed: () => told.closed++,
    forget: () => told.forgotten++,
  };
  const [scope, destroy] = createScope();
  const start = (id = 'c1') => {
    const actor = new ConversationActor(id, host);
    const life = scope.run(function* () {
      yield* useConversationActor(actor);
      yield* actor.untilRetired();
    });
    return { actor, life };
  };
  return { start, told, destroy, emitted };
}

describe('a conversation actor', () => {
  it('handles its letters one at a time, in the order they were posted', async () => {
    const { start, destroy } = actors();
    const { actor } = start();
    const log: string[] = [];
    const a = step(log, 'a');
    const b = step(log, 'b');
    const c = step(log, 'c');
    const results = [a, b, c].map((s) => actor.post(s.work));
    await tick();
    expect(log).toEqual(['a starts']);
    c.finish();
    b.finish();
    a.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a starts', 'a ends', 'b starts', 'b ends', 'c starts', 'c ends']);
    await destroy();
  });

  it("lets another conversation's actor work meanwhile", async () => {
    const { start, destroy } = actors();
    const log: string[] = [];
    const slow = step(log, 'slow');
    const other = step(log, 'other');
    const first = start('c1').actor.post(slow.work);
    const second = start('c2').actor.post(other.work);
    other.finish();
    await second;
    expect(log).toEqual(['slow starts', 'other starts', 'other ends']);
    slow.finish();
    await first;
    await destroy();
  });

  it('goes on after a letter that failed, and hands the failure to whoever posted it', async () => {
    const { start, destroy } = actors();
    const { actor } = start();
    const failed = actor.post(() => Promise.reject(new Error('no such node')));
    const next = actor.post(async () => 'next');
    await expect(failed).rejects.toThrow('no such node');
    await expect(next).resolves.toBe('next');
    await destroy();
  });

  it('opens one runner on demand, knows the HEAD it writes, and reads the store only without one', async () => {
    const { start, told, destroy } = actors();
    const { actor } = start();
    expect(await actor.post((self) => self.head())).toBe('stored-head');
    const runner = await actor.post((self) => self.runner(record));
    expect(await actor.post((self) => self.runner(record))).toBe(runner);
    expect(told.opened).toBe(1);
    expect(actor.peek()).toBe(runner);
    // Opened on the root, it waits on its chat prompt there: that is the HEAD it knows.
    expect(await actor.post((self) => self.head())).toBe(runner.head);
    expect(statusOf(actor.peek())).toBe('waiting');
    await destroy();
  });

  it('retires when idle with nothing waiting: its runner closes and its lease goes', async () => {
    const { start, told, destroy } = actors();
    const { actor, life } = start();
    await actor.post((self) => self.runner(record));
    // Used since: it stays.
    expect(await actor.retireIfIdle(0)).toBe(false);
    expect(actor.peek()).toBeDefined();

    expect(await actor.retireIfIdle(Date.now() + 1)).toBe(true);
    await life;
    expect(actor.peek()).toBeUndefined();
    expect(told).toMatchObject({ opened: 1, closed: 1, released: 1, forgotten: 1 });
    await destroy();
  });

  it('does not retire while a letter waits behind the idle close; that letter is handled', async () => {
    const { start, told, destroy } = actors();
    const { actor } = start();
    const log: string[] = [];
    const busy = step(log, 'busy');
    const first = actor.post(busy.work);
    const idle = actor.retireIfIdle(Date.now() + 1);
    const after = actor.post(async () => 'after');
    busy.finish();
    await first;
    expect(await idle).toBe(false);
    expect(await after).toBe('after');
    expect(told.forgotten).toBe(0);
    await destroy();
  });

  it('at the end of its scope, refuses what still waits and closes its runner', async () => {
    const { start, told, destroy } = actors();
    const { actor } = start();
    await actor.post((self) => self.runner(record));
    const log: string[] = [];
    const stuck = step(log, 'stuck');
    const running = actor.post(stuck.work);
    const waiting = actor.post(async () => 'never');
    await tick();
    await destroy();
    const closed = { error: { code: 'unavailable', message: expect.stringContaining('closed') } };
    await expect(running).rejects.toBeInstanceOf(ApiError);
    await expect(waiting.catch((error: ApiError) => error.body)).resolves.toEqual(closed);
    expect(told.closed).toBe(1);
    expect(actor.peek()).toBeUndefined();
  });
});
