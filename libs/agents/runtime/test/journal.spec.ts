import type { NodeDraft, StateReducer, TreeNode } from '@sweatpants/domain';
import { run } from 'effection';
import { GROUP_COMMIT_MS, HeadMovedError, Journal, type FoldCache } from '../src/journal';
import type { ConversationPort } from '@sweatpants/domain';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';

/** A reducer that counts the nodes folded into it, and how often it was applied. */
function counting() {
  let applied = 0;
  const count: StateReducer<number> = {
    name: 'count',
    version: 1,
    initial: 0,
    apply: (n) => {
      applied++;
      return n + 1;
    },
  };
  return { count, applied: () => applied };
}

/** An in-memory conversation whose port records every write the journal makes. */
function conversation() {
  const store = new InMemoryConversationPort();
  const root = store.create('c1');
  /** each write the port was asked for, as its runs */
  const writes: { kinds: string[]; action: string }[][] = [];
  const port: ConversationPort = {
    path: (id) => store.path(id),
    pathFromSummary: (id) => store.pathFromSummary(id),
    build: (input) => store.build(input),
    requestCompaction: (input) => store.requestCompaction(input),
    returnTo: (input) => store.returnTo(input),
    queue: store.queue,
    append: (input) => {
      writes.push(
        input.runs.map((r) => ({ kinds: r.nodes.map((n) => n.kind), action: r.action ?? 'append' })),
      );
      return store.append(input);
    },
  };
  const stored: TreeNode[][] = [];
  const journal = new Journal(port, 'c1', [root], [], (nodes) => stored.push(nodes));
  return { store, port, root, writes, stored, journal };
}

const agent = (text: string): NodeDraft => ({ kind: 'assistant', payload: { text }, authorId: 'agent:t' });
const event = (type: string): NodeDraft => ({ kind: 'event', payload: { type }, authorId: 'agent:t' });
const answer = (elicitId: string): NodeDraft => ({
  kind: 'response',
  payload: { elicitId, action: 'accept', content: { value: true } },
  authorId: 'u1',
});

async function storedPath(store: InMemoryConversationPort): Promise<TreeNode[]> {
  const path = await store.path('c1');
  if (!path.ok) throw new Error(path.error.message);
  return path.value;
}

describe('Journal: group commit', () => {
  it('names appended nodes at once and stores them in one write at the durability point', async () => {
    const { store, writes, journal, root } = conversation();

    const named = await run(function* () {
      const [a] = yield* journal.append([event('seen')]);
      const [b] = yield* journal.append([agent('one'), agent('two')]);
      return [a, b];
    });

    expect(writes).toEqual([]);
    expect(journal.path().map((n) => n.kind)).toEqual(['root', 'event', 'assistant', 'assistant']);
    expect(journal.head).toBe(journal.path().at(-1)?.id);
    expect(journal.durableHead).toBe(root.id);

    await run(() => journal.durable());

    expect(writes).toEqual([[{ kinds: ['event', 'assistant', 'assistant'], action: 'append' }]]);
    expect((await storedPath(store)).map((n) => n.id)).toEqual(journal.path().map((n) => n.id));
    expect(named.map((n) => n?.parentId)).toEqual([root.id, journal.path()[1]?.id]);
    expect(journal.durableHead).toBe(journal.head);
  });

  it('writes one run per author and action, in order and in one write, so the reflog says who moved HEAD', async () => {
    const { store, writes, journal, stored } = conversation();

    await run(function* () {
      yield* journal.append([agent('a question')]);
      yield* journal.append([answer('e1')]);
      yield* journal.append([event('decided'), agent('next')]);
      yield* journal.durable();
    });
    await journal.appendNow([{ kind: 'cancel', payload: { by: 'u1' }, authorId: 'agent:t' }], 'cancel');

    expect(writes).toEqual([
      [
        { kinds: ['assistant'], action: 'append' },
        { kinds: ['response'], action: 'append' },
        { kinds: ['event', 'assistant'], action: 'append' },
      ],
      [{ kinds: ['cancel'], action: 'cancel' }],
    ]);
    expect(stored.map((nodes) => nodes.length)).toEqual([1, 1, 2, 1]);
    // each run its own HEAD move
    expect(store.inspect('c1').moves.map((m) => m.action)).toEqual([
      'create',
      'append',
      'append',
      'append',
      'cancel',
    ]);
  });

  it('starts a write without waiting, and stores only what was appended before it started', async () => {
    const { writes, journal } = conversation();

    await run(function* () {
      yield* journal.append([answer('e1')]);
      journal.startWriting();
      yield* journal.append([agent('goes on meanwhile')]);
    });
    await new Promise((resolve) => setImmediate(resolve));

    expect(writes).toEqual([[{ kinds: ['response'], action: 'append' }]]);
    await run(() => journal.durable());
    expect(writes.at(-1)).toEqual([{ kinds: ['assistant'], action: 'append' }]);
  });

  it("writes soon: with the turn's next nodes when a durability point comes first, in one write", async () => {
    const { writes, journal, stored } = conversation();

    await run(function* () {
      yield* journal.append([answer('e1')]);
      void journal.writeSoon();
      yield* journal.append([agent('the next question')]);
      yield* journal.durable();
    });
    await new Promise((resolve) => setTimeout(resolve, GROUP_COMMIT_MS * 2));

    expect(writes).toEqual([
      [
        { kinds: ['response'], action: 'append' },
        { kinds: ['assistant'], action: 'append' },
      ],
    ]);
    expect(stored.map((nodes) => nodes.map((n) => n.kind))).toEqual([['response'], ['assistant']]);
  });

  it('writes soon: alone when no durability point comes within the window', async () => {
    const { writes, journal } = conversation();

    let stored: Promise<void> = Promise.resolve();
    await run(function* () {
      yield* journal.append([answer('e1')]);
      stored = journal.writeSoon();
    });
    expect(writes).toEqual([]);
    await stored;

    expect(writes).toEqual([[{ kinds: ['response'], action: 'append' }]]);
    expect(journal.durableHead).toBe(journal.head);
  });

  it('writes what it promised to write soon when the runner stops first, and nothing after it', async () => {
    const { writes, journal } = conversation();

    let stored: Promise<void> = Promise.resolve();
    await run(function* () {
      yield* journal.append([answer('e1')]);
      stored = journal.writeSoon();
    });
    await journal.abandon();
    await stored;

    expect(writes).toEqual([[{ kinds: ['response'], action: 'append' }]]);
    await expect(journal.appendNow([agent('too late')])).rejects.toThrow(/was closed/);
    expect(writes).toHaveLength(1);
  });

  it('when HEAD moved under it, drops what it had not stored and throws HeadMovedError from then on', async () => {
    const { store, journal, root } = conversation();
    await run(function* () {
      yield* journal.append([agent('stored')]);
      yield* journal.durable();
    });
    const stored = journal.head;
    store.moveHead('c1', root.id);

    await run(function* () {
      yield* journal.append([agent('never stored')]);
    });
    await expect(run(() => journal.durable())).rejects.toBeInstanceOf(HeadMovedError);

    expect(journal.head).toBe(stored);
    expect(journal.path().map((n) => n.kind)).toEqual(['root', 'assistant']);
    await expect(journal.appendNow([agent('later')])).rejects.toBeInstanceOf(HeadMovedError);
    await expect(run(() => journal.append([agent('later')]))).rejects.toBeInstanceOf(HeadMovedError);
    expect((await storedPath(store)).map((n) => n.id)).toEqual([root.id]);
  });

  it('refuses a draft the store would refuse when it is appended, not when it is written', async () => {
    const { journal, writes } = conversation();
    const refusing: NodeDraft[] = [];
    await expect(run(() => journal.append(refusing))).rejects.toThrow(/nothing to append/);
    expect(writes).toEqual([]);
  });

  it('folds a reducer once per node while the path grows, and from the root again after it was cut back', async () => {
    const { store, journal, root } = conversation();
    const { count, applied } = counting();

    await run(function* () {
      yield* journal.append([event('a'), event('b')]);
      yield* journal.durable();
    });
    expect(journal.fold(count)).toBe(3);
    await run(() => journal.append([event('c')]));
    expect(journal.fold(count)).toBe(4);
    expect(applied()).toBe(4);

    // HEAD moved under it: the path is cut back to what is stored, and the fold starts again.
    store.moveHead('c1', root.id);
    await expect(run(() => journal.durable())).rejects.toBeInstanceOf(HeadMovedError);
    expect(journal.fold(count)).toBe(3);
    expect(applied()).toBe(7);
  });

  it("goes on from the previous turn's fold when the next turn starts where it ended", async () => {
    const { port, root } = conversation();
    const { count, applied } = counting();
    const folds: FoldCache = new Map();
    const first = new Journal(port, 'c1', [root], [], () => undefined, folds);
    await run(function* () {
      yield* first.append([event('a'), event('b')]);
      yield* first.durable();
    });
    expect(first.fold(count)).toBe(3);

    // The next turn starts from the path the first one ended on: only its own node is folded.
    const next = new Journal(port, 'c1', first.path(), [], () => undefined, folds);
    await run(() => next.append([event('c')]));
    expect(next.fold(count)).toBe(4);
    expect(applied()).toBe(4);

    // A turn on another path (a rewind) folds its own path from the start.
    const elsewhere = new Journal(port, 'c1', [root], [], () => undefined, folds);
    expect(elsewhere.fold(count)).toBe(1);
    expect(applied()).toBe(5);
  });
});
