import type { QueuedMessage, TreeNode } from '@sweatpants/domain';
import { OfflineModel } from '../src/offline';
import { Runner, silentOutbox } from '../src/host';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';
import { testAgent } from '../src/testing';

/**
 * Seed 004: "when new input arrives while processing, backend decides what to do (queue,
 * interrupt, merge)"; "requests queue by default". The offline model thinks for PACE_MS before
 * each reply, as a real model takes time, so a turn is at work long enough to send into.
 */
const PACE_MS = 150;

/** A conversation and its runner; `paceMs` 0 is a model that answers at once. */
function session(paceMs = PACE_MS) {
  const port = new InMemoryConversationPort();
  port.create('c1');
  const announced: QueuedMessage[][] = [];
  const open = () =>
    Runner.open({
      conversationId: 'c1',
      agent: testAgent,
      port,
      model: new OfflineModel([], { paceMs }),
      outbox: { ...silentOutbox, queue: (items) => announced.push(items) },
    });
  const userWords = async () => {
    const path = await port.path('c1');
    if (!path.ok) throw new Error(path.error.message);
    return path.value.filter((n): n is TreeNode<'user'> => n.kind === 'user').map((n) => n.payload.text);
  };
  return { port, open, announced, userWords };
}

const say = (text: string) => ({ text, authorId: 'u1' });

describe('a message sent while the agent works', () => {
  it('is queued at once and taken as the next input, in order, after the turn it waited on', async () => {
    const s = session();
    const runner = await s.open();
    expect((await runner.send(say('first'))).ok).toBe(true);
    expect(runner.status).toBe('running');

    const second = await runner.send(say('second'));
    const third = await runner.send(say('third'));
    if (!second.ok || !third.ok) throw new Error('a queued message was refused');
    expect(second.value).toMatchObject({ kind: 'user', payload: { text: 'second', queued: true } });
    expect(runner.queued().map((m) => m.text)).toEqual(['second', 'third']);
    expect(await s.port.queue.waiting('c1')).toHaveLength(2);
    expect(await s.userWords()).toEqual(['first']);

    await runner.whenIdle();
    expect(await s.userWords()).toEqual(['first', 'second', 'third']);
    const path = await s.port.path('c1');
    if (!path.ok) throw new Error(path.error.message);
    const taken = path.value.filter((n) => n.kind === 'user' && n.payload.queuedId);
    expect(taken.map((n) => (n as TreeNode<'user'>).payload.queuedId)).toEqual([
      second.value.id,
      third.value.id,
    ]);
    // each taken message was answered before the next was taken
    const kinds = path.value.map((n) => n.kind);
    expect(kinds.lastIndexOf('assistant')).toBeGreaterThan(kinds.lastIndexOf('user'));
    expect(runner.queued()).toEqual([]);
    expect(await s.port.queue.waiting('c1')).toEqual([]);
    expect(s.announced.at(-1)).toEqual([]);
    await runner.close();
  });

  it('is taken even when the turn ended while the message was being stored', async () => {
    const s = session();
    // The queue's store answers only when let go: the turn ends meanwhile, finding nothing queued.
    let letGo: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const enqueue = s.port.queue.enqueue.bind(s.port.queue);
    s.port.queue.enqueue = async (message) => {
      await held;
      return enqueue(message);
    };
    const runner = await s.open();
    await runner.send(say('first'));
    const storing = runner.send(say('second'));
    await runner.whenIdle();
    expect(await s.userWords()).toEqual(['first']);

    letGo();
    expect((await storing).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    await runner.whenIdle();

    expect(await s.userWords()).toEqual(['first', 'second']);
    expect(runner.queued()).toEqual([]);
    expect(runner.status).not.toBe('running');
    await runner.close();
  });

  it('with a model that answers at once, takes every queued message in order', async () => {
    // A model that answers at once: a turn's nodes and the message that began it land in one
    // write, which may come after the turn has ended.
    const s = session(0);
    const runner = await s.open();
    const sent = [
      await runner.send(say('first')),
      await runner.send(say('second')),
      await runner.send(say('third')),
    ];
    expect(sent.every((r) => r.ok)).toBe(true);

    for (let waited = 0; runner.queued().length > 0 && waited < 5_000; waited += 10)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await runner.whenIdle();

    expect(await s.userWords()).toEqual(['first', 'second', 'third']);
    expect(runner.queued()).toEqual([]);
    expect(await s.port.queue.waiting('c1')).toEqual([]);
    await runner.close();
  });

  it('withdrawn before it is taken, is never taken; once taken, it cannot be withdrawn', async () => {
    const s = session();
    const runner = await s.open();
    await runner.send(say('first'));
    const keep = await runner.send(say('keep this'));
    const drop = await runner.send(say('never mind this'));
    if (!keep.ok || !drop.ok) throw new Error('a queued message was refused');

    expect(await runner.withdraw(drop.value.id)).toEqual({ ok: true, value: undefined });
    expect(runner.queued().map((m) => m.text)).toEqual(['keep this']);
    expect(await runner.withdraw(drop.value.id)).toMatchObject({ ok: false, error: { code: 'not_found' } });

    await runner.whenIdle();
    expect(await s.userWords()).toEqual(['first', 'keep this']);
    expect(await runner.withdraw(keep.value.id)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await runner.close();
  });

  it('waits out a Stop: the stopped turn ends with its cancel node, then the queue goes on', async () => {
    const s = session();
    const runner = await s.open();
    await runner.send(say('first'));
    await runner.send(say('after the stop'));
    await runner.cancel('u1');
    await runner.whenIdle();
    const path = await s.port.path('c1');
    if (!path.ok) throw new Error(path.error.message);
    const kinds = path.value.map((n) => n.kind);
    expect(kinds.indexOf('cancel')).toBeGreaterThan(-1);
    expect(kinds.indexOf('cancel')).toBeLessThan(kinds.lastIndexOf('user'));
    expect(await s.userWords()).toEqual(['first', 'after the stop']);
    await runner.close();
  });

  it('survives the runner: a message queued before a crash is taken by the runner opened next', async () => {
    const s = session();
    const first = await s.open();
    await first.send(say('first'));
    await first.send(say('still here'));
    await first.close(); // a crash mid-turn: nothing more of this runner is written

    const next = await s.open();
    await next.whenIdle();
    expect(await s.userWords()).toEqual(['first', 'still here']);
    expect(await s.port.queue.waiting('c1')).toEqual([]);
    await next.close();
  });

  it('is not taken twice when the runner stopped between writing its node and leaving the queue', async () => {
    const s = session();
    const store = s.port.queue;
    let dies = true;
    // The process dies after the taken message's node landed, before its queue row went.
    const port = Object.assign(Object.create(s.port) as InMemoryConversationPort, {
      queue: {
        ...store,
        remove: async (conversationId: string, id: string) => {
          if (!dies) return store.remove(conversationId, id);
          dies = false;
          throw new Error('the process died');
        },
      },
    });
    const runner = await Runner.open({
      conversationId: 'c1',
      agent: testAgent,
      port,
      model: new OfflineModel([], { paceMs: PACE_MS }),
      logs: { write: () => undefined },
    });
    await runner.send(say('first'));
    await runner.send(say('once only'));
    await runner.whenIdle();
    await runner.close();
    expect(await store.waiting('c1')).toHaveLength(1);

    const reopened = await s.open();
    await reopened.whenIdle();
    expect(await s.userWords()).toEqual(['first', 'once only']);
    expect(await store.waiting('c1')).toEqual([]);
    await reopened.close();
  });
});
