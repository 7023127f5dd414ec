import { InMemoryConversationPort, Runner } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { testAgent } from '@sweatpants/agent-runtime/testing';
import type { ConversationRecord } from '@sweatpants/domain';
import type { TreeStore } from '@sweatpants/tree-store';
import { createScope } from 'effection';
import type { AuthUser } from '../auth/auth-user';
import { ApiError } from '../errors/api-error';
import type { ActorHost } from './actor-host';
import { ConversationActor, useConversationActor } from './conversation-actor';
import type { ConversationEvents } from './conversation-events';
import type { ConversationTitles } from './conversation-titles';
import { ConversationTraces } from '../tracing/conversation-traces';
import { RunnerOutbox } from './runner-outbox';

const tick = () => new Promise((resolve) => setImmediate(resolve));

const user: AuthUser = {
  id: 'u1',
  email: 'u1@example.com',
  displayName: 'U1',
  role: 'user',
  emailVerified: true,
  via: { kind: 'session' },
};

const recordOf = (id: string): ConversationRecord => ({
  id,
  agent: 'tidying',
  title: '',
  ownerId: 'u1',
  head: 'root',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
  archivedAt: null,
});
const record = recordOf('c1');

/** A door the test holds shut: whatever waits at it goes on once the test opens it. */
function door() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open: () => open() };
}

/**
 * Actors in a scope of their own, over in-memory conversations whose runners the test agent drives
 * with the offline model; the host records what the actor asks of the process, and opening a
 * conversation's runner can be held at a door (a runner being rebuilt from a long tree).
 */
function actors() {
  const port = new InMemoryConversationPort();
  port.create('c1');
  port.create('c2');
  const emitted: string[] = [];
  const events = {
    emit: (event: string) => emitted.push(event),
    // the reply's words as they stream: not what these letters are about
    token: () => undefined,
  } as unknown as ConversationEvents;
  const told = { opened: 0, closed: 0, released: 0, forgotten: 0 };
  const doors = new Map<string, Promise<void>>();
  const archived = new Map<string, string>();
  const host: ActorHost = {
    open: async ({ id }) => {
      told.opened++;
      await doors.get(id);
      const outbox = new RunnerOutbox(id, events);
      const runner = await Runner.open({
        conversationId: id,
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
    runnerClosed: () => told.closed++,
    forget: () => told.forgotten++,
    acting: () => undefined,
    events,
    // What a command writes beside the runner (moves) is not exercised here; the store says
    // which conversations are live (a runner opens only on one) and takes archiving.
    store: {
      conversation: async (id: string) => ({ ...recordOf(id), archivedAt: archived.get(id) ?? null }),
      archive: async (id: string) => void archived.set(id, new Date().toISOString()),
    } as unknown as TreeStore,
    titles: { fromFirstWords: async () => undefined } as unknown as ConversationTitles,
    model: 'offline',
    // Tracing is off in this process: the real one, which hands back what it is given.
    traces: new ConversationTraces(),
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
  /** Holds the opening of `id`'s runner until the returned door opens. */
  const holdOpening = (id: string) => {
    const held = door();
    doors.set(id, held.opened);
    return held.open;
  };
  return { start, told, destroy, emitted, holdOpening };
}

describe('a conversation actor', () => {
  it('handles its commands one at a time, in the order they arrived', async () => {
    const { start, destroy, holdOpening } = actors();
    const { actor } = start();
    const release = holdOpening('c1');
    const settled: string[] = [];
    const noted = <T>(name: string, result: Promise<T>) =>
      result.then((value) => (settled.push(name), value));
    const first = noted('view', actor.command(user, record, { kind: 'view' }));
    const sent = noted('send', actor.command(user, record, { kind: 'send', text: 'the lamp' }));
    const pending = noted('pending', actor.command(user, record, { kind: 'pending' }));
    const last = noted('view again', actor.command(user, record, { kind: 'view' }));
    await tick();
    expect(settled).toEqual([]);
    expect(actor.backlog).toBe(4);
    release();
    const [before, { node }, , after] = await Promise.all([first, sent, pending, last]);
    expect(settled).toEqual(['view', 'send', 'pending', 'view again']);
    expect(node).toMatchObject({ kind: 'user', payload: { text: 'the lamp' } });
    // The message was handled before the last view: HEAD had moved past the first view's.
    expect(after.head).not.toBe(before.head);
    expect(actor.backlog).toBe(0);
    await destroy();
  });

  it("lets another conversation's actor work meanwhile", async () => {
    const { start, destroy, holdOpening } = actors();
    const release = holdOpening('c1');
    const slow = start('c1').actor.command(user, record, { kind: 'view' });
    const other = await start('c2').actor.command(user, recordOf('c2'), { kind: 'view' });
    expect(other).toMatchObject({ id: 'c2', status: 'waiting' });
    release();
    await expect(slow).resolves.toMatchObject({ id: 'c1' });
    await destroy();
  });

  it('goes on after a command that failed, and hands the failure to whoever sent it', async () => {
    const { start, destroy } = actors();
    const { actor } = start();
    const answer = { action: 'accept' as const, content: { value: true } };
    const failed = actor.command(user, record, { kind: 'respond', elicitId: 'no-such-question', answer });
    const next = actor.command(user, record, { kind: 'view' });
    await expect(failed.catch((error: ApiError) => error.body.error.code)).resolves.toBe('not_found');
    await expect(next).resolves.toMatchObject({ id: 'c1' });
    await destroy();
  });

  it("opens no runner on a conversation archived since the command's record was read: a 404", async () => {
    const { start, told, destroy } = actors();
    const { actor } = start();
    await actor.command(user, record, { kind: 'send', text: 'the lamp' });
    await actor.command(user, record, { kind: 'archive' });
    expect(actor.peek()).toBeUndefined();

    // The record still says the conversation is live (a socket read it when it joined).
    const late = actor.command(user, record, { kind: 'send', text: 'the mugs' });
    await expect(late.catch((error: ApiError) => error.body.error.code)).resolves.toBe('not_found');
    expect(actor.peek()).toBeUndefined();
    expect(told.opened).toBe(1);
    await destroy();
  });

  it('opens one runner on demand, and says what it waits on', async () => {
    const { start, told, destroy } = actors();
    const { actor } = start();
    expect(actor.peek()).toBeUndefined();
    const view = await actor.command(user, record, { kind: 'view' });
    await actor.command(user, record, { kind: 'pending' });
    expect(told.opened).toBe(1);
    const runner = actor.peek();
    // Opened on the root, it waits on its chat prompt there: that is the HEAD it knows.
    expect(view).toMatchObject({ status: 'waiting', head: runner?.head, pendingElicit: { type: 'chat' } });
    await destroy();
  });

  it('retires when idle with nothing waiting: its runner closes and its lease goes', async () => {
    const { start, told, destroy } = actors();
    const { actor, life } = start();
    await actor.command(user, record, { kind: 'view' });
    // Used since: it stays.
    expect(await actor.tell({ kind: 'retire', idleSince: 0 })).toBe(false);
    expect(actor.peek()).toBeDefined();

    expect(await actor.tell({ kind: 'retire', idleSince: Date.now() + 1 })).toBe(true);
    await life;
    expect(actor.peek()).toBeUndefined();
    expect(told).toMatchObject({ opened: 1, closed: 1, released: 1, forgotten: 1 });
    await destroy();
  });

  it('does not retire while a command waits behind the idle close; that command is handled', async () => {
    const { start, told, destroy, holdOpening } = actors();
    const { actor } = start();
    const release = holdOpening('c1');
    const first = actor.command(user, record, { kind: 'view' });
    const idle = actor.tell({ kind: 'retire', idleSince: Date.now() + 1 });
    const after = actor.command(user, record, { kind: 'pending' });
    release();
    await first;
    expect(await idle).toBe(false);
    expect(await after).toEqual([expect.objectContaining({ type: 'chat' })]);
    expect(told.forgotten).toBe(0);
    await destroy();
  });

  it('at the end of its scope, refuses what still waits and closes its runner', async () => {
    const { start, told, destroy, holdOpening } = actors();
    const { actor } = start();
    await actor.command(user, record, { kind: 'view' });
    await actor.tell({ kind: 'close' });
    expect(told.closed).toBe(1);
    const release = holdOpening('c1');
    const running = actor.command(user, record, { kind: 'view' });
    const waiting = actor.command(user, record, { kind: 'pending' });
    await tick();
    const ended = destroy();
    // The runner being opened as the scope ends is closed once it is open.
    release();
    await ended;
    const closed = { error: { code: 'unavailable', message: expect.stringContaining('closed') } };
    await expect(running).rejects.toBeInstanceOf(ApiError);
    await expect(waiting.catch((error: ApiError) => error.body)).resolves.toEqual(closed);
    expect(told.closed).toBe(2);
    expect(actor.peek()).toBeUndefined();
  });
});
