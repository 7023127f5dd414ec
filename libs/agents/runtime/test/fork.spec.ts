import { foldPath, type StateReducer, type TreeNode } from '@sweatpants/domain';
import { run, suspend, type Operation } from 'effection';
import * as z from 'zod';
import { back, createAgent, createTool, fork, forward, Ok, Run, type Forked } from '../src';
import { Journal, silentOutbox } from '../src/host';
import { InMemoryConversationPort } from '../src/storage/in-memory-port';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const expectType = <T extends true>(_proof?: T): void => undefined;

/** How often each search really ran: a replay must answer from the tree instead. */
const ran: string[] = [];

/**
 * A search a subagent does: it records where it looked (a state event, taken from the record on
 * replay like any agent's own record) and answers what it found there.
 */
function search(name: string, found: string[]) {
  return createTool(name)
    .parameter(z.object({ item: z.string() }))
    .execute(function* ({ item }) {
      ran.push(name);
      const run = yield* Run.expect();
      if (!run.journal.take('event', 'where the finder looked')) {
        const payload = { type: 'searched', where: name, item };
        yield* run.journal.append([{ kind: 'event', payload, authorId: run.authorId }]);
      }
      return Ok(found);
    });
}

const Finder = createAgent(
  {
    findDropOff: search('find_drop_off', []),
    findCollection: search('find_collection', ['Tuesday collection from the door']),
  },
  { name: 'finder' },
);

/** The finder's state: every place it looked, folded from the path like any agent's state. */
const looked: StateReducer<string[]> = {
  name: 'looked',
  version: 1,
  initial: [],
  apply: (state, node) =>
    node.kind === 'event' && node.payload['type'] === 'searched'
      ? [...state, String(node.payload['where'])]
      : state,
};

/** The parent: drop-off places first, and, finding none, back and collection services instead. */
function* findAHome(): Operation<Forked<string[]>[]> {
  const dropOff = yield* fork(Finder, 'drop-off first', function* (attempt) {
    const places = yield* attempt.tools.findDropOff({ item: 'coat' });
    return places.length > 0 ? forward(places) : back('no drop-off place near', { within: 25 });
  });
  const collection = yield* fork(Finder, 'collection', function* (attempt) {
    return forward(yield* attempt.tools.findCollection({ item: 'coat' }));
  });
  return [dropOff, collection];
}

/** Runs `body` as a turn of the parent on `journal`, and stores what it wrote. */
function inTurn<T>(journal: Journal, body: () => Operation<T>): Promise<T> {
  return run(function* () {
    yield* Run.set({ conversationId: 'c1', authorId: 'agent:parent', journal, outbox: silentOutbox });
    const result = yield* body();
    yield* journal.durable();
    return result;
  });
}

async function pathOf(port: InMemoryConversationPort): Promise<TreeNode[]> {
  const path = await port.path('c1');
  if (!path.ok) throw new Error(path.error.message);
  return path.value;
}

const typeOf = (n: TreeNode) => (n.kind === 'event' ? `event:${String(n.payload['type'])}` : n.kind);

describe('fork / forward / back for a subagent', () => {
  beforeEach(() => ran.splice(0));

  it('goes back from an abandoned attempt, leaving it as a branch of the subagent, and commits the next', async () => {
    const port = new InMemoryConversationPort();
    const root = port.create('c1');
    const [dropOff, collection] = await inTurn(new Journal(port, 'c1', [root]), findAHome);

    expect(dropOff).toEqual({ forwarded: false, reason: 'no drop-off place near', detail: { within: 25 } });
    expect(collection).toEqual({ forwarded: true, value: ['Tuesday collection from the door'] });

    // HEAD's path: the abandoned attempt is off it, the committed one on it.
    const path = await pathOf(port);
    expect(path.map(typeOf)).toEqual([
      'root',
      'event:fork-return',
      'event:fork',
      'tool_call',
      'event:searched',
      'tool_result',
      'event:forward',
    ]);
    expect(foldPath(looked, path)).toEqual(['find_collection']);

    // The abandoned attempt is still in the tree: a branch from the fork point, every node the finder's.
    const nodes = [...port.inspect('c1').nodes.values()];
    const abandoned = nodes.filter((n) => !path.includes(n));
    expect(abandoned.map(typeOf)).toEqual(['event:fork', 'tool_call', 'event:searched', 'tool_result']);
    expect(abandoned.every((n) => n.authorId === 'agent:finder')).toBe(true);
    expect(abandoned[0]?.payload).toEqual({ type: 'fork', agent: 'finder', label: 'drop-off first' });
    expect(foldPath(looked, [root, ...abandoned])).toEqual(['find_drop_off']);
    // The return and the next attempt are a sibling branch of it, under the same node.
    const [, returned, nextFork] = path;
    expect(returned?.parentId).toBe(root.id);
    expect(abandoned[0]?.parentId).toBe(root.id);
    expect(returned?.payload).toMatchObject({
      type: 'fork-return',
      agent: 'finder',
      label: 'drop-off first',
      reason: 'no drop-off place near',
      detail: { within: 25 },
      branch: abandoned.at(-1)?.id,
    });
    expect(nextFork?.payload).toEqual({ type: 'fork', agent: 'finder', label: 'collection' });
    expect(path.slice(1).every((n) => n.authorId === 'agent:finder')).toBe(true);

    // The reflog: the attempt appended, HEAD returned from its tip to the fork point, the next appended.
    const moves = port.inspect('c1').moves;
    expect(moves.map((m) => m.action)).toEqual(['create', 'append', 'return', 'append']);
    expect(moves[2]).toEqual({ from: abandoned.at(-1)?.id, to: returned?.id, action: 'return' });
    expect(moves[3]?.to).toBe(path.at(-1)?.id);
  });

  it('replays from the tree after a crash without running a search again or writing anything twice', async () => {
    const port = new InMemoryConversationPort();
    const root = port.create('c1');
    const first = await inTurn(new Journal(port, 'c1', [root]), findAHome);
    const stored = port.inspect('c1');
    const before = { nodes: stored.nodes.size, moves: stored.moves.length, head: stored.head };
    ran.splice(0);

    const path = await pathOf(port);
    const again = await inTurn(new Journal(port, 'c1', [root], path.slice(1)), findAHome);

    expect(again).toEqual(first);
    expect(ran).toEqual([]);
    expect({ nodes: stored.nodes.size, moves: stored.moves.length, head: stored.head }).toEqual(before);
  });

  it('goes on from an attempt a crash cut short: its recorded search is not run again, and back still returns', async () => {
    const port = new InMemoryConversationPort();
    const root = port.create('c1');
    // The first runner stores the attempt's search, then dies before it decides.
    let searched = (): void => undefined;
    const stored = new Promise<void>((resolve) => (searched = resolve));
    const cut = run(function* () {
      const journal = new Journal(port, 'c1', [root]);
      yield* Run.set({ conversationId: 'c1', authorId: 'agent:parent', journal, outbox: silentOutbox });
      yield* fork(Finder, 'drop-off first', function* (attempt): Operation<Forked<string[]>> {
        yield* attempt.tools.findDropOff({ item: 'coat' });
        yield* journal.durable();
        searched();
        yield* suspend();
        return back('halted before it decided');
      });
    });
    await stored;
    await cut.halt();
    expect(ran).toEqual(['find_drop_off']);
    ran.splice(0);

    const path = await pathOf(port);
    const [dropOff, collection] = await inTurn(new Journal(port, 'c1', [root], path.slice(1)), findAHome);

    expect(ran).toEqual(['find_collection']);
    expect(dropOff?.forwarded).toBe(false);
    expect(collection?.forwarded).toBe(true);
    expect(port.inspect('c1').nodes.size).toBe(1 + 4 + 1 + 5);
    expect(port.inspect('c1').moves.map((m) => m.action)).toEqual(['create', 'append', 'return', 'append']);
  });

  it('abandons an attempt whose body throws, and the error goes on to the parent', async () => {
    const port = new InMemoryConversationPort();
    const root = port.create('c1');
    const failed = inTurn(new Journal(port, 'c1', [root]), () =>
      fork(Finder, 'drop-off first', function* (attempt) {
        yield* attempt.tools.findDropOff({ item: 'coat' });
        throw new Error('the map would not load');
      }),
    );
    await expect(failed).rejects.toThrow('the map would not load');
    const path = await pathOf(port);
    expect(path.map(typeOf)).toEqual(['root', 'event:fork-return']);
    expect(path[1]?.payload).toMatchObject({ reason: 'the map would not load', threw: true });
    expect(port.inspect('c1').nodes.size).toBe(1 + 4 + 1);
  });

  it('types an attempt’s calls by the subagent’s tools and what it commits by the body', async () => {
    const port = new InMemoryConversationPort();
    const journal = new Journal(port, 'c1', [port.create('c1')]);
    const tried = await inTurn(journal, () =>
      fork(Finder, 'typed', function* (attempt) {
        // @ts-expect-error: the finder's search takes an item's name
        const refused = () => attempt.tools.findCollection({ item: 3 });
        expect(refused).toBeInstanceOf(Function);
        const found = yield* attempt.tools.findCollection({ item: 'lamp' });
        expectType<Equal<typeof found, string[]>>();
        return forward({ first: found[0] ?? '' });
      }),
    );
    expectType<Equal<typeof tried, Forked<{ first: string }>>>();
    expect(tried).toEqual({ forwarded: true, value: { first: 'Tuesday collection from the door' } });
  });
});
