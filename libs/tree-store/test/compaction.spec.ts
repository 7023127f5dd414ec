import { foldPath, summaryStateKey, type StateReducer } from '@sweatpants/domain';
import type { TreeStore } from '../src';
import { createTestStore, user, type TestStore } from './test-store';

let t: TestStore;
let store: TreeStore;
beforeAll(async () => {
  t = await createTestStore('compaction', { poolSize: 6 });
  store = t.store;
});
afterAll(() => t.close());

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const texts = (nodes: { payload: unknown }[]) => nodes.map((n) => (n.payload as { text?: string }).text);

async function conversationOf(count: number) {
  const { conversation } = await store.createConversation({ ownerId: 'u', agent: 'tidying' });
  const appended = must(
    await store.append({
      conversationId: conversation.id,
      nodes: Array.from({ length: count }, (_, i) => user(`n${i + 1}`)),
      actorId: 'u',
    }),
  );
  return { id: conversation.id, nodes: appended.nodes };
}

/** A fold that needs every user node: the texts seen so far. */
const seen: StateReducer<string[]> = {
  name: 'seen',
  version: 1,
  initial: [],
  apply: (state, node) => (node.kind === 'user' ? [...state, String(node.payload['text'])] : state),
};

describe('squash-and-rebase', () => {
  it('keeps an agent state across the range it replaces: the summary carries the fold up to its end', async () => {
    const c = await conversationOf(6);
    const before = must(await store.stateAt(c.id, 'HEAD', seen));
    const covered = must(await store.path(c.id, c.nodes[3]!.id));
    must(
      await store.squashAndRebase({
        conversationId: c.id,
        fromId: c.nodes[1]!.id,
        toId: c.nodes[3]!.id,
        text: 'n2..n4',
        states: { [summaryStateKey(seen)]: foldPath(seen, covered) },
        authorId: 'agent:compactor',
        actorId: 'system',
      }),
    );
    const path = must(await store.path(c.id));
    expect(texts(path)).toEqual([undefined, 'n1', 'n2..n4', 'n5', 'n6']);
    expect(must(await store.stateAt(c.id, 'HEAD', seen)).state).toEqual(before.state);
    expect(foldPath(seen, path)).toEqual(before.state);
  });

  it('replaces a range by a summary, rebases the tail onto it, and keeps the old chain in the reflog', async () => {
    const c = await conversationOf(8);
    const [from, to] = [c.nodes[1]!, c.nodes[4]!];
    const squashed = must(
      await store.squashAndRebase({
        conversationId: c.id,
        fromId: from.id,
        toId: to.id,
        text: 'n2..n5 happened',
        authorId: 'agent:compactor',
        actorId: 'system',
      }),
    );
    expect(squashed.summary).toMatchObject({
      parentId: c.nodes[0]!.id,
      depth: 2,
      kind: 'summary',
      payload: { text: 'n2..n5 happened', covers: { fromId: from.id, toId: to.id, count: 4 } },
    });
    expect(squashed.rebased).toBe(3);
    const path = must(await store.path(c.id));
    expect(texts(path)).toEqual([undefined, 'n1', 'n2..n5 happened', 'n6', 'n7', 'n8']);
    // The rebased tail keeps content, authors and times, under new ids.
    expect(path.slice(3).map((n) => n.createdAt)).toEqual(c.nodes.slice(5).map((n) => n.createdAt));
    expect(path.slice(3).map((n) => n.id)).not.toEqual(c.nodes.slice(5).map((n) => n.id));
    expect(squashed.reflog).toMatchObject({
      action: 'compact',
      oldHead: c.nodes[7]!.id,
      newHead: squashed.head,
    });
    // The pre-compaction chain is one reflog step away.
    expect(texts(must(await store.path(c.id, 'HEAD@{1}')))).toEqual([
      undefined,
      'n1',
      'n2',
      'n3',
      'n4',
      'n5',
      'n6',
      'n7',
      'n8',
    ]);
    expect((await store.fsck(c.id))?.ok).toBe(true);
  });

  it('is idempotent: the same range again changes nothing and returns the same summary', async () => {
    const c = await conversationOf(4);
    const input = {
      conversationId: c.id,
      fromId: c.nodes[0]!.id,
      toId: c.nodes[1]!.id,
      text: 's',
      authorId: 'agent:c',
      actorId: 's',
    };
    const first = must(await store.squashAndRebase(input));
    const again = must(await store.squashAndRebase(input));
    expect(again).toMatchObject({
      summary: { id: first.summary.id },
      head: first.head,
      reflog: null,
      rebased: 0,
    });
    expect(
      must(await store.reflog(c.id, { limit: 10 })).entries.filter((e) => e.action === 'compact'),
    ).toHaveLength(1);
  });

  it('gives up, changing nothing, when HEAD has left the branch', async () => {
    const c = await conversationOf(5);
    must(await store.move({ conversationId: c.id, to: c.nodes[0]!.id, action: 'rewind', actorId: 'u' }));
    must(await store.append({ conversationId: c.id, nodes: [user('elsewhere')], actorId: 'u' }));
    const head = await store.head(c.id);
    const result = await store.squashAndRebase({
      conversationId: c.id,
      fromId: c.nodes[1]!.id,
      toId: c.nodes[3]!.id,
      text: 's',
      authorId: 'agent:c',
      actorId: 's',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'head_left_branch', head: head!.id } });
    expect((await store.head(c.id))?.id).toBe(head!.id);
  });

  it('rejects ranges that are not a path', async () => {
    const c = await conversationOf(4);
    const backwards = await store.squashAndRebase({
      conversationId: c.id,
      fromId: c.nodes[2]!.id,
      toId: c.nodes[0]!.id,
      text: 's',
      authorId: 'a',
      actorId: 's',
    });
    expect(backwards).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });

  it('rebases whatever was appended while it ran: no append is lost or doubled', async () => {
    const c = await conversationOf(40);
    let appending = true;
    const acknowledged: string[] = [];
    const appender = (async () => {
      // At least a few appends, however fast the squashes are on a loaded machine.
      for (let i = 0; appending || i < 6; i++) {
        const r = await store.append({ conversationId: c.id, nodes: [user(`live ${i}`)], actorId: 'u' });
        if (r.ok) acknowledged.push(`live ${i}`);
      }
    })();
    const squashes = [];
    for (let k = 0; k < 4; k++) {
      // As a compaction job does: read the path, take a while to summarise, then squash what it read.
      const seen = must(await store.path(c.id));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const from = seen[k + 2]!;
      const to = seen[k + 7]!;
      squashes.push(
        await store.squashAndRebase({
          conversationId: c.id,
          fromId: from.id,
          toId: to.id,
          text: `summary ${k}`,
          authorId: 'agent:c',
          actorId: 's',
        }),
      );
    }
    appending = false;
    await appender;
    expect(squashes.map((s) => s.ok)).toEqual([true, true, true, true]);
    expect(acknowledged.length).toBeGreaterThan(5);
    const path = texts(must(await store.path(c.id)));
    for (const text of acknowledged) expect(path.filter((x) => x === text)).toHaveLength(1);
    expect(path.filter((x) => x?.startsWith('summary'))).toEqual([
      'summary 0',
      'summary 1',
      'summary 2',
      'summary 3',
    ]);
    expect(path.slice(-acknowledged.length)).toEqual(acknowledged);
    expect((await store.fsck(c.id))?.ok).toBe(true);
  }, 60_000);
});
