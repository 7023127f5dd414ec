import { back, createAgent, createTool, fork, forward, Ok, Run } from '@sweatpants/agent-runtime';
import { Journal, silentOutbox } from '@sweatpants/agent-runtime/host';
import type { TreeListingNode, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, StorePort, TreeStore } from '@sweatpants/tree-store';
import { run } from 'effection';
import * as z from 'zod';

/**
 * Seed 004's fork/forward/back for a subagent, on the tree store: an attempt abandoned (back) and
 * one committed (forward), asserted on the stored tree and the reflog.
 */

const Finder = createAgent(
  {
    findDropOff: createTool('find_drop_off')
      .parameter(z.object({ item: z.string() }))
      .execute(function* () {
        return Ok<string[]>([]);
      }),
    findCollection: createTool('find_collection')
      .parameter(z.object({ item: z.string() }))
      .execute(function* () {
        return Ok(['Tuesday collection from the door']);
      }),
  },
  { name: 'finder' },
);

let db: TestDatabase;
let client: PgSqlClient;
let store: TreeStore;
beforeAll(async () => {
  db = await createTestDatabase('subagent_fork');
  client = PgSqlClient.connect(db.url, { max: 2, role: 'sweatpants_app' });
  store = new TreeStore(client);
});
afterAll(async () => {
  await client.close();
  await db.drop();
});

async function treeOf(conversationId: string): Promise<TreeListingNode[]> {
  const tree = await store.tree(conversationId, { limit: 100 });
  if (!tree.ok) throw new Error(tree.error.message);
  return tree.value.nodes;
}

const typeOf = (n: TreeNode) => (n.kind === 'event' ? `event:${String(n.payload['type'])}` : n.kind);

it('keeps an abandoned attempt as the subagent’s branch, returns from it, and commits the next as a sibling', async () => {
  const { conversation } = await store.createConversation({ ownerId: 'u1', agent: 'donations' });
  const id = conversation.id;
  const port = new StorePort(store, 'agent:donations', {
    appended: () => undefined,
    compactionRequested: async () => undefined,
  });
  const start = await port.path(id);
  if (!start.ok) throw new Error(start.error.message);
  const journal = new Journal(port, id, start.value);

  const [dropOff, collection] = await run(function* () {
    yield* Run.set({ conversationId: id, authorId: 'agent:donations', journal, outbox: silentOutbox });
    const first = yield* fork(Finder, 'drop-off first', function* (attempt) {
      const places = yield* attempt.tools.findDropOff({ item: 'coat' });
      return places.length > 0 ? forward(places) : back('no drop-off place near');
    });
    const second = yield* fork(Finder, 'collection', function* (attempt) {
      return forward(yield* attempt.tools.findCollection({ item: 'coat' }));
    });
    yield* journal.durable();
    return [first, second];
  });
  expect(dropOff).toEqual({ forwarded: false, reason: 'no drop-off place near' });
  expect(collection).toEqual({ forwarded: true, value: ['Tuesday collection from the door'] });

  // The tree: the root has two children, the abandoned attempt and the return that led to the next.
  const tree = await treeOf(id);
  const root = tree.find((n) => n.kind === 'root') as TreeListingNode;
  const [left, taken] = root.childIds.map((c) => tree.find((n) => n.id === c) as TreeListingNode);
  const branch = (from: TreeListingNode | undefined): TreeListingNode[] =>
    from ? [from, ...branch(tree.find((n) => n.id === from.childIds[0]))] : [];
  const abandoned = branch(left?.payload['type'] === 'fork' ? left : taken);
  const committed = branch(left?.payload['type'] === 'fork' ? taken : left);
  expect(root.childIds).toHaveLength(2);
  expect(abandoned.map(typeOf)).toEqual(['event:fork', 'tool_call', 'tool_result']);
  expect(abandoned.every((n) => !n.onHead && n.authorId === 'agent:finder')).toBe(true);
  expect(abandoned[0]?.payload).toEqual({ type: 'fork', agent: 'finder', label: 'drop-off first' });
  expect(committed.map(typeOf)).toEqual([
    'event:fork-return',
    'event:fork',
    'tool_call',
    'tool_result',
    'event:forward',
  ]);
  expect(committed.every((n) => n.onHead && n.authorId === 'agent:finder')).toBe(true);
  expect(committed[0]?.payload).toMatchObject({ label: 'drop-off first', branch: abandoned.at(-1)?.id });
  expect(committed[1]?.payload).toEqual({ type: 'fork', agent: 'finder', label: 'collection' });
  expect((await store.head(id))?.id).toBe(committed.at(-1)?.id);

  // The reflog, newest first: the committed attempt appended, the return from the abandoned one's
  // tip, the abandoned attempt appended; each the finder's move.
  const reflog = await store.reflog(id, { limit: 10 });
  if (!reflog.ok) throw new Error(reflog.error.message);
  const [appendedNext, returned, appendedFirst, created] = reflog.value.entries;
  expect(reflog.value.entries.map((e) => e.action)).toEqual(['append', 'return', 'append', 'create']);
  expect([appendedNext, returned, appendedFirst].every((e) => e?.actorId === 'agent:finder')).toBe(true);
  expect(appendedFirst?.newHead).toBe(abandoned.at(-1)?.id);
  expect(returned).toMatchObject({ oldHead: abandoned.at(-1)?.id, newHead: committed[0]?.id });
  expect(appendedNext).toMatchObject({ oldHead: committed[0]?.id, newHead: committed.at(-1)?.id });
  expect(created?.newHead).toBe(root.id);

  // The abandoned attempt stays recoverable, as every branch is.
  const recovered = await store.recover({
    conversationId: id,
    reflogId: appendedFirst?.id ?? '',
    actorId: 'u1',
  });
  if (!recovered.ok) throw new Error(recovered.error.message);
  expect(recovered.value.head).toBe(abandoned.at(-1)?.id);
});
