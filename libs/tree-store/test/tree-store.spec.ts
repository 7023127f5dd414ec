import { buildNodes, type TreeStore } from '../src';
import { assistant, createTestStore, user, type TestStore } from './test-store';

let t: TestStore;
let store: TreeStore;
beforeAll(async () => {
  t = await createTestStore('tree_store');
  store = t.store;
});
afterAll(() => t.close());

const unwrap = <T>(r: { ok: true; value: T } | { ok: false; error: unknown }): T => {
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.value;
};

async function conversationWith(...texts: string[]) {
  const { conversation, root } = await store.createConversation({
    ownerId: 'user-1',
    agent: 'tidying',
    title: 't',
  });
  const appended = texts.length
    ? unwrap(
        await store.append({
          conversationId: conversation.id,
          nodes: texts.map((x, i) => (i % 2 === 0 ? user(x) : assistant(x))),
          actorId: 'user-1',
        }),
      )
    : null;
  return { id: conversation.id, root, nodes: appended?.nodes ?? [] };
}

describe('a new conversation', () => {
  it('has a root, HEAD on it, and a create row in the reflog', async () => {
    const { conversation, root } = await store.createConversation({ ownerId: 'u', agent: 'concierge' });
    expect(conversation.head).toBe(root.id);
    expect(root).toMatchObject({
      depth: 0,
      parentId: null,
      kind: 'root',
      payload: { conversationId: conversation.id },
    });
    const log = unwrap(await store.reflog(conversation.id, { limit: 10 }));
    expect(log.entries).toEqual([
      expect.objectContaining({ index: 0, action: 'create', oldHead: null, newHead: root.id, actorId: 'u' }),
    ]);
  });
});

describe('append', () => {
  it('chains nodes under HEAD, content-addressed, and moves HEAD with one reflog row', async () => {
    const c = await conversationWith('hello', 'hi there', 'tidy my desk');
    expect(c.nodes.map((n) => n.depth)).toEqual([1, 2, 3]);
    expect(c.nodes[0]?.parentId).toBe(c.root.id);
    expect(c.nodes.every((n) => /^[0-9a-f]{64}$/.test(n.id))).toBe(true);
    const path = unwrap(await store.path(c.id));
    expect(path.map((n) => n.id)).toEqual([c.root.id, ...c.nodes.map((n) => n.id)]);
    expect(path.at(-1)?.payload).toEqual({ text: 'tidy my desk' });
    const log = unwrap(await store.reflog(c.id, { limit: 10 }));
    expect(log.entries.map((e) => e.action)).toEqual(['append', 'create']);
    expect(log.entries[0]?.message).toContain('tidy my desk');
  });

  it('loses a compare-and-swap with a conflict carrying the current HEAD, and writes nothing', async () => {
    const c = await conversationWith('one');
    const stale = c.root.id;
    const result = await store.append({
      conversationId: c.id,
      nodes: [user('two')],
      expectedHead: stale,
      actorId: 'u',
    });
    expect(result).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'conflict', head: c.nodes[0]?.id }),
    });
    const tree = unwrap(await store.tree(c.id, { limit: 100 }));
    expect(tree.nodes).toHaveLength(2);
  });

  it('rejects invalid payloads naming each bad field, and unknown conversations as not found', async () => {
    const c = await conversationWith();
    const bad = await store.append({
      conversationId: c.id,
      nodes: [
        { kind: 'user', payload: { text: 5 }, authorId: 'u' } as never,
        { kind: 'root', payload: {}, authorId: 'u' } as never,
      ],
      actorId: 'u',
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok && bad.error.code === 'invalid_request') {
      expect(bad.error.details?.map((d) => d.field)).toEqual(['nodes.0.payload.text', 'nodes.1.kind']);
    }
    const nul = await store.append({ conversationId: c.id, nodes: [user('a\u0000b')], actorId: 'u' });
    expect(nul).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const missing = await store.append({
      conversationId: '00000000-0000-4000-8000-000000000000',
      nodes: [user('x')],
      actorId: 'u',
    });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('appendBuilt (nodes named before they are written)', () => {
  it('stores the nodes buildNodes named, ids, depths and times as built, with one reflog row', async () => {
    const c = await conversationWith('hello');
    const head = c.nodes[0]!;
    const built = unwrap(buildNodes(c.id, head, [assistant('named first'), user('then stored')]));

    const stored = unwrap(
      await store.appendBuilt({
        conversationId: c.id,
        nodes: built,
        expectedHead: head.id,
        actorId: 'agent:t',
      }),
    );

    expect(stored.nodes).toEqual(built);
    expect(stored.head).toBe(built[1]!.id);
    expect(unwrap(await store.path(c.id)).slice(-2)).toEqual(built);
    const log = unwrap(await store.reflog(c.id, { limit: 1 }));
    expect(log.entries[0]).toMatchObject({ action: 'append', oldHead: head.id, newHead: built[1]!.id });
    expect((await store.fsck(c.id))?.ok).toBe(true);
  });

  it('refuses nodes buildNodes did not make, and a run that is not a chain from the expected HEAD', async () => {
    const c = await conversationWith('hello');
    const head = c.nodes[0]!;
    const built = unwrap(buildNodes(c.id, head, [assistant('a'), assistant('b')]));
    const copy = built.map((n) => ({ ...n }));

    const forged = await store.appendBuilt({
      conversationId: c.id,
      nodes: copy,
      expectedHead: head.id,
      actorId: 'x',
    });
    const gap = await store.appendBuilt({
      conversationId: c.id,
      nodes: built.slice(1),
      expectedHead: head.id,
      actorId: 'x',
    });

    expect([forged, gap].map((r) => !r.ok && r.error.code)).toEqual(['invalid_request', 'invalid_request']);
    expect(unwrap(await store.path(c.id)).at(-1)?.id).toBe(head.id);
  });

  it('loses a compare-and-swap against a moved HEAD, reporting where HEAD is', async () => {
    const c = await conversationWith('hello', 'hi');
    const [first, second] = c.nodes;
    const built = unwrap(buildNodes(c.id, first!, [assistant('late')]));

    const lost = await store.appendBuilt({
      conversationId: c.id,
      nodes: built,
      expectedHead: first!.id,
      actorId: 'x',
    });

    expect(!lost.ok && lost.error).toMatchObject({ code: 'conflict', head: second!.id });
  });
});

describe('appendBuiltRuns (several HEAD moves in one write)', () => {
  it("stores a person's answer and the agent's nodes after it as two HEAD moves, each with its author's reflog row", async () => {
    const c = await conversationWith('hello');
    const head = c.nodes[0]!;
    const [answer] = unwrap(buildNodes(c.id, head, [user('the shelf')]));
    const reply = unwrap(buildNodes(c.id, answer!, [assistant('noted'), assistant('and the mugs?')]));

    const stored = unwrap(
      await store.appendBuiltRuns({
        conversationId: c.id,
        expectedHead: head.id,
        runs: [
          { nodes: [answer!], actorId: 'user-1' },
          { nodes: reply, actorId: 'agent:tidying' },
        ],
      }),
    );

    expect(stored.map((s) => s.nodes)).toEqual([[answer], reply]);
    expect(stored.map((s) => s.head)).toEqual([answer!.id, reply[1]!.id]);
    expect(unwrap(await store.path(c.id)).slice(-3)).toEqual([answer, ...reply]);
    const log = unwrap(await store.reflog(c.id, { limit: 2 }));
    expect(log.entries.map((e) => [e.actorId, e.oldHead, e.newHead])).toEqual([
      ['agent:tidying', answer!.id, reply[1]!.id],
      ['user-1', head.id, answer!.id],
    ]);
    expect((await store.fsck(c.id))?.ok).toBe(true);
  });

  it('writes nothing when the first run loses its compare-and-swap, and refuses runs that are not one chain', async () => {
    const c = await conversationWith('hello', 'hi');
    const [first, second] = c.nodes;
    const [late] = unwrap(buildNodes(c.id, first!, [user('late')]));
    const after = unwrap(buildNodes(c.id, late!, [assistant('after it')]));
    const elsewhere = unwrap(buildNodes(c.id, second!, [assistant('not under late')]));
    const reflogBefore = unwrap(await store.reflog(c.id, { limit: 1 })).entries[0];

    const lost = await store.appendBuiltRuns({
      conversationId: c.id,
      expectedHead: first!.id,
      runs: [
        { nodes: [late!], actorId: 'user-1' },
        { nodes: after, actorId: 'agent:t' },
      ],
    });
    const gap = await store.appendBuiltRuns({
      conversationId: c.id,
      expectedHead: second!.id,
      runs: [
        { nodes: [late!], actorId: 'user-1' },
        { nodes: elsewhere, actorId: 'agent:t' },
      ],
    });

    expect(!lost.ok && lost.error).toMatchObject({ code: 'conflict', head: second!.id });
    expect(!gap.ok && gap.error.code).toBe('invalid_request');
    expect(unwrap(await store.path(c.id)).at(-1)?.id).toBe(second!.id);
    expect(unwrap(await store.reflog(c.id, { limit: 1 })).entries[0]).toEqual(reflogBefore);
  });
});

describe('refs', () => {
  it('resolve HEAD, HEAD~n, HEAD@{n}, full ids and unique prefixes', async () => {
    const c = await conversationWith('a', 'b', 'c');
    const [a, b, cc] = c.nodes;
    const at = async (ref: string) => unwrap(await store.resolve(c.id, ref)).id;
    expect(await at('HEAD')).toBe(cc?.id);
    expect(await at('HEAD~1')).toBe(b?.id);
    expect(await at('HEAD~3')).toBe(c.root.id);
    expect(await at('HEAD^')).toBe(b?.id);
    expect(await at(a!.id)).toBe(a?.id);
    expect(await at(a!.id.slice(0, 7))).toBe(a?.id);
    expect(await at(`${b!.id.slice(0, 9)}~1`)).toBe(a?.id);
    unwrap(await store.move({ conversationId: c.id, to: 'HEAD~2', action: 'rewind', actorId: 'u' }));
    expect(await at('HEAD')).toBe(a?.id);
    expect(await at('HEAD@{1}')).toBe(cc?.id);
    expect(await at('HEAD@{2}')).toBe(c.root.id);
    expect(await at('HEAD@{1}~1')).toBe(b?.id);
  });

  it('report bad refs as invalid and unreachable ones as not found', async () => {
    const c = await conversationWith('a');
    expect(await store.resolve(c.id, 'HEAD~9')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await store.resolve(c.id, 'HEAD@{9}')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await store.resolve(c.id, 'main')).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
    expect(await store.resolve(c.id, 'abc')).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(await store.resolve(c.id, '0000000')).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const other = await conversationWith('b');
    expect(await store.resolve(c.id, other.nodes[0]!.id)).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('moving HEAD', () => {
  it('rewind then recover restores the discarded branch; both moves are in the reflog', async () => {
    const c = await conversationWith('a', 'b', 'c');
    const tip = c.nodes[2]!.id;
    const rewound = unwrap(
      await store.move({ conversationId: c.id, to: 'HEAD~2', action: 'rewind', actorId: 'u' }),
    );
    expect(rewound.reflog).toMatchObject({ action: 'rewind', oldHead: tip, newHead: c.nodes[0]!.id });
    const branch = unwrap(await store.append({ conversationId: c.id, nodes: [user('other')], actorId: 'u' }));
    const log = unwrap(await store.reflog(c.id, { limit: 10 }));
    const beforeRewind = log.entries.find((e) => e.newHead === tip)!;
    const recovered = unwrap(
      await store.recover({ conversationId: c.id, reflogId: beforeRewind.id, actorId: 'u' }),
    );
    expect(recovered.head).toBe(tip);
    expect(recovered.reflog).toMatchObject({ action: 'recover', oldHead: branch.head });
    expect(unwrap(await store.path(c.id)).map((n) => n.id)).toEqual([c.root.id, ...c.nodes.map((n) => n.id)]);
    // Both branches stay in the tree.
    expect(await store.children(c.id, c.nodes[0]!.id)).toHaveLength(2);
  });

  it('rewind with a stale expected HEAD is a conflict and moves nothing', async () => {
    const c = await conversationWith('a', 'b');
    const result = await store.move({
      conversationId: c.id,
      to: 'HEAD~1',
      action: 'rewind',
      expectedHead: c.root.id,
      actorId: 'u',
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'conflict', head: c.nodes[1]!.id } });
    expect(unwrap(await store.resolve(c.id, 'HEAD')).id).toBe(c.nodes[1]!.id);
  });

  it('edit makes a sibling of a user message, moves HEAD to it, and keeps the old branch', async () => {
    const c = await conversationWith('my desk', 'ok', 'done');
    const edited = unwrap(
      await store.edit({
        conversationId: c.id,
        nodeId: c.nodes[0]!.id,
        text: 'my closet',
        authorId: 'u',
        actorId: 'u',
      }),
    );
    const [node] = edited.nodes;
    expect(node).toMatchObject({ parentId: c.root.id, depth: 1, payload: { text: 'my closet' } });
    expect(edited.reflog.action).toBe('edit');
    expect((await store.node(c.id, c.root.id))?.childIds).toEqual([c.nodes[0]!.id, node!.id]);
    expect(
      await store.edit({
        conversationId: c.id,
        nodeId: c.nodes[1]!.id,
        text: 'x',
        authorId: 'u',
        actorId: 'u',
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});

describe('reading the tree', () => {
  it('pages through every node, parents first, with children and the HEAD path marked', async () => {
    const c = await conversationWith('a', 'b', 'c', 'd');
    unwrap(await store.move({ conversationId: c.id, to: 'HEAD~2', action: 'rewind', actorId: 'u' }));
    const side = unwrap(
      await store.append({ conversationId: c.id, nodes: [user('x'), assistant('y')], actorId: 'u' }),
    );
    const seen: { id: string; onHead: boolean; childIds: string[]; parentId: string | null }[] = [];
    let after: string | undefined;
    do {
      const page = unwrap(await store.tree(c.id, { limit: 2, ...(after ? { after } : {}) }));
      seen.push(...page.nodes);
      after = page.next ?? undefined;
    } while (after);
    expect(seen).toHaveLength(7);
    const ids = seen.map((n) => n.id);
    expect(new Set(ids).size).toBe(7);
    for (const n of seen) if (n.parentId) expect(ids.indexOf(n.parentId)).toBeLessThan(ids.indexOf(n.id));
    const onHead = seen.filter((n) => n.onHead).map((n) => n.id);
    expect(onHead).toEqual(unwrap(await store.path(c.id)).map((n) => n.id));
    expect(seen.find((n) => n.id === c.nodes[1]!.id)?.childIds).toEqual([c.nodes[2]!.id, side.nodes[0]!.id]);
  });

  it('pages the reflog newest first with HEAD@{n} indexes', async () => {
    const c = await conversationWith();
    for (let i = 0; i < 5; i++)
      unwrap(await store.append({ conversationId: c.id, nodes: [user(`m${i}`)], actorId: 'u' }));
    const first = unwrap(await store.reflog(c.id, { limit: 4 }));
    expect(first.entries.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    const second = unwrap(await store.reflog(c.id, { limit: 4, before: first.next! }));
    expect(second.entries.map((e) => e.index)).toEqual([4, 5]);
    expect(second.entries.at(-1)?.action).toBe('create');
    expect(second.next).toBeNull();
  });

  it('lets an admin read reflogs across conversations, filtered', async () => {
    const mine = await store.createConversation({ ownerId: 'audited-owner', agent: 'tidying' });
    unwrap(
      await store.append({
        conversationId: mine.conversation.id,
        nodes: [user('x', 'audited-owner')],
        actorId: 'audited-owner',
      }),
    );
    unwrap(
      await store.move({
        conversationId: mine.conversation.id,
        to: 'HEAD~1',
        action: 'rewind',
        actorId: 'audited-owner',
      }),
    );
    const byOwner = unwrap(await store.adminReflog({ ownerId: 'audited-owner', limit: 10 }));
    expect(byOwner.entries.map((e) => e.action)).toEqual(['rewind', 'append', 'create']);
    expect(
      byOwner.entries.every(
        (e) => e.ownerId === 'audited-owner' && e.conversationId === mine.conversation.id,
      ),
    ).toBe(true);
    const rewinds = unwrap(
      await store.adminReflog({ ownerId: 'audited-owner', action: 'rewind', limit: 10 }),
    );
    expect(rewinds.entries).toHaveLength(1);
    const future = unwrap(
      await store.adminReflog({ since: new Date(Date.now() + 60_000).toISOString(), limit: 10 }),
    );
    expect(future.entries).toHaveLength(0);
    const paged = unwrap(await store.adminReflog({ ownerId: 'audited-owner', limit: 2 }));
    const rest = unwrap(await store.adminReflog({ ownerId: 'audited-owner', limit: 2, before: paged.next! }));
    expect([...paged.entries, ...rest.entries].map((e) => e.action)).toEqual(['rewind', 'append', 'create']);
  });
});

describe('fork', () => {
  it('copies the path to a ref into a new conversation of the caller', async () => {
    const c = await conversationWith('a', 'b', 'c');
    const forked = unwrap(
      await store.fork({ conversationId: c.id, at: 'HEAD~1', ownerId: 'user-2', actorId: 'user-2' }),
    );
    expect(forked.conversation).toMatchObject({ ownerId: 'user-2', agent: 'tidying', title: 't (fork)' });
    const path = unwrap(await store.path(forked.conversation.id));
    expect(path.map((n) => n.payload)).toEqual([
      {
        conversationId: forked.conversation.id,
        forkedFrom: { conversationId: c.id, nodeId: c.nodes[1]!.id },
      },
      { text: 'a' },
      { text: 'b' },
    ]);
    expect(path.map((n) => n.createdAt).slice(1)).toEqual(c.nodes.slice(0, 2).map((n) => n.createdAt));
    const log = unwrap(await store.reflog(forked.conversation.id, { limit: 5 }));
    expect(log.entries.map((e) => e.action)).toEqual(['fork', 'create']);
    expect((await store.fsck(forked.conversation.id))?.ok).toBe(true);
  });
});

describe('state at a node', () => {
  const counter = {
    name: 'counter',
    version: 1,
    initial: { users: 0, last: '' },
    apply: (s: { users: number; last: string }, n: { kind: string; payload: unknown }) =>
      n.kind === 'user' ? { users: s.users + 1, last: (n.payload as { text: string }).text } : s,
  };

  it('is the fold of the path, so a rewind restores it exactly', async () => {
    const c = await conversationWith();
    const texts = Array.from({ length: 150 }, (_, i) => `m${i}`);
    unwrap(await store.append({ conversationId: c.id, nodes: texts.map((x) => user(x)), actorId: 'u' }));
    expect(unwrap(await store.stateAt(c.id, 'HEAD', counter)).state).toEqual({ users: 150, last: 'm149' });
    expect(unwrap(await store.stateAt(c.id, 'HEAD~50', counter)).state).toEqual({ users: 100, last: 'm99' });
    unwrap(await store.move({ conversationId: c.id, to: 'HEAD~100', action: 'rewind', actorId: 'u' }));
    unwrap(await store.append({ conversationId: c.id, nodes: [user('branch')], actorId: 'u' }));
    expect(unwrap(await store.stateAt(c.id, 'HEAD', counter)).state).toEqual({ users: 51, last: 'branch' });
    const snapshots = await t.client.query<{ n: string }>(
      `SELECT count(*) AS n FROM state_snapshots WHERE reducer = 'counter@1'`,
    );
    expect(Number(snapshots[0]?.n)).toBe(2);
  });
});
