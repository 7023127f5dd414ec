import type { TreeNode } from '@sweatpants/domain';
import { assistant, createTestStore, user, type TestStore } from './test-store';
import type { TreeStore } from '../src/tree-store';

let t: TestStore;
let store: TreeStore;
beforeAll(async () => {
  t = await createTestStore('summary_path');
  store = t.store;
});
afterAll(() => t.close());

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** A summary node as compaction writes it, naming the (made-up) range it stands for. */
const summary = (text: string, covers: TreeNode) => ({
  kind: 'summary' as const,
  payload: { text, covers: { fromId: covers.id, toId: covers.id, count: 1 } },
  authorId: 'agent:compactor',
});

/** Appends `drafts` under `parentId` (HEAD when absent); returns the nodes. */
async function append(
  conversationId: string,
  drafts: Parameters<TreeStore['append']>[0]['nodes'],
  parentId?: string,
): Promise<TreeNode[]> {
  return must(
    await store.append({ conversationId, nodes: drafts, actorId: 'u', ...(parentId ? { parentId } : {}) }),
  ).nodes;
}

async function conversation(): Promise<{ id: string; root: TreeNode }> {
  const { conversation, root } = await store.createConversation({ ownerId: 'u', agent: 'tidying' });
  return { id: conversation.id, root };
}

const ids = (nodes: readonly TreeNode[]) => nodes.map((n) => n.id);

/** What pathFromSummary must return: `path`'s nodes from `first` on. */
async function pathFrom(conversationId: string, ref: string, first: TreeNode): Promise<TreeNode[]> {
  const path = must(await store.path(conversationId, ref));
  const at = path.findIndex((n) => n.id === first.id);
  expect(at).toBeGreaterThan(0);
  return path.slice(at);
}

describe('TreeStore.pathFromSummary', () => {
  it('reads from the latest of several summaries, the same nodes path returns for that range', async () => {
    const c = await conversation();
    const [u1, a1] = await append(c.id, [user('u1'), assistant('a1')]);
    await append(c.id, [summary('s1', u1!), user('u2'), assistant('a2')]);
    const [s2] = await append(c.id, [summary('s2', a1!), user('u3')]);
    await append(c.id, [assistant('a3')]);

    const read = must(await store.pathFromSummary(c.id));
    expect(read[0]?.id).toBe(s2!.id);
    expect(read.map((n) => n.kind)).toEqual(['summary', 'user', 'assistant']);
    expect(read).toEqual(await pathFrom(c.id, 'HEAD', s2!));
  });

  it('reads from the root when the path holds no summary', async () => {
    const c = await conversation();
    await append(c.id, [user('u1'), assistant('a1'), user('u2')]);
    const read = must(await store.pathFromSummary(c.id, 'HEAD'));
    expect(read).toEqual(must(await store.path(c.id, 'HEAD')));
    expect(read[0]?.id).toBe(c.root.id);
  });

  it('reads a stack of summaries whole: each compaction summarises only what followed the one before', async () => {
    const c = await conversation();
    const [u1, a1] = await append(c.id, [
      user('u1'),
      assistant('a1'),
      user('u2'),
      assistant('a2'),
      user('u3'),
      assistant('a3'),
    ]);
    const first = must(
      await store.squashAndRebase({
        conversationId: c.id,
        fromId: u1!.id,
        toId: a1!.id,
        text: 'u1..a1',
        authorId: 'agent:compactor',
        actorId: 'system',
      }),
    ).summary;
    // The rebased tail has new ids: the second squash names them on HEAD's path.
    const rebased = must(await store.path(c.id)).slice(2);
    expect(rebased.map((n) => (n.payload as { text?: string }).text)).toEqual(['u2', 'a2', 'u3', 'a3']);
    const second = must(
      await store.squashAndRebase({
        conversationId: c.id,
        fromId: rebased[0]!.id,
        toId: rebased[1]!.id,
        text: 'u2..a2',
        authorId: 'agent:compactor',
        actorId: 'system',
      }),
    ).summary;
    expect(second.parentId).toBe(first.id);

    const read = must(await store.pathFromSummary(c.id));
    expect(read.map((n) => (n.payload as { text?: string }).text)).toEqual(['u1..a1', 'u2..a2', 'u3', 'a3']);
    expect(read).toEqual(await pathFrom(c.id, 'HEAD', first));
  });

  it('reads the path of a ref on another branch, from the latest summary on that branch', async () => {
    const c = await conversation();
    const [u1, a1] = await append(c.id, [user('u1'), assistant('a1')]);
    const [s1, u2, a2] = await append(c.id, [summary('s1', u1!), user('u2'), assistant('a2')]);
    // The main line goes on past a second summary...
    const [s2, , mainTip] = await append(c.id, [summary('s2', u2!), user('u3'), assistant('a3')]);
    // ...a branch leaves it above s2 (it has only s1), another below s2 (a segment of its own).
    const [, aboveTip] = await append(c.id, [user('u2b'), assistant('a2b')], a2!.id);
    const [, belowTip] = await append(c.id, [user('u3b'), assistant('a3b')], s2!.id);

    const above = must(await store.pathFromSummary(c.id, aboveTip!.id));
    expect(above[0]?.id).toBe(s1!.id);
    expect(above).toEqual(await pathFrom(c.id, aboveTip!.id, s1!));
    const below = must(await store.pathFromSummary(c.id, belowTip!.id));
    expect(ids(below)).toEqual([s2!.id, below[1]!.id, belowTip!.id]);
    expect(below).toEqual(await pathFrom(c.id, belowTip!.id, s2!));
    // HEAD is the last branch's tip; the main line's tip is read by its id.
    expect(must(await store.pathFromSummary(c.id))).toEqual(below);
    expect(must(await store.pathFromSummary(c.id, mainTip!.id))).toEqual(
      await pathFrom(c.id, mainTip!.id, s2!),
    );
    // A summary is its own context's first node; a node above every summary reads from the root;
    // `~n` resolves as for path.
    expect(ids(must(await store.pathFromSummary(c.id, s1!.id)))).toEqual([s1!.id]);
    expect(must(await store.pathFromSummary(c.id, a1!.id))).toEqual(must(await store.path(c.id, a1!.id)));
    expect(ids(must(await store.pathFromSummary(c.id, `${belowTip!.id}~1`)))).toEqual(ids(below).slice(0, 2));
  });

  it('answers for a ref it cannot resolve as path does', async () => {
    const c = await conversation();
    const read = await store.pathFromSummary(c.id, 'HEAD~3');
    expect(read.ok).toBe(false);
    expect(read.ok ? null : read.error.code).toBe('not_found');
  });
});
