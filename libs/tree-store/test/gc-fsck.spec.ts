import { Client } from 'pg';
import type { TreeStore } from '../src';
import { createTestStore, user, type TestStore } from './test-store';

let t: TestStore;
let store: TreeStore;
beforeAll(async () => {
  t = await createTestStore('gc_fsck');
  store = t.store;
});
afterAll(() => t.close());

const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const days = (n: number) => new Date(Date.now() + n * 86_400_000);

/** a → b → c, then HEAD rewound to a and d appended: b and c are a discarded branch. */
async function withDiscardedBranch() {
  const { conversation, root } = await store.createConversation({ ownerId: 'u', agent: 'tidying' });
  const id = conversation.id;
  const [a, b, c] = must(
    await store.append({ conversationId: id, nodes: [user('a'), user('b'), user('c')], actorId: 'u' }),
  ).nodes;
  must(await store.move({ conversationId: id, to: a!.id, action: 'rewind', actorId: 'u' }));
  const d = must(await store.append({ conversationId: id, nodes: [user('d')], actorId: 'u' })).nodes[0]!;
  return { id, root: root.id, a: a!.id, b: b!.id, c: c!.id, d: d.id };
}

async function nodeIds(conversationId: string): Promise<string[]> {
  const rows = await t.client.query<{ id: string }>(
    `SELECT encode(id, 'hex') AS id FROM nodes WHERE conversation_id = $1`,
    [conversationId],
  );
  return rows.map((r) => r.id).sort();
}

describe('gc', () => {
  it('keeps a discarded branch while its reflog entries are retained', async () => {
    const x = await withDiscardedBranch();
    for (const now of [new Date(), days(29), days(89)]) {
      const report = await store.gc({ conversationId: x.id, now });
      expect(report).toMatchObject({ reflogEntries: [], nodes: [] });
    }
    expect(await nodeIds(x.id)).toEqual([x.root, x.a, x.b, x.c, x.d].sort());
  });

  it('dry run lists what expiry would delete, then gc deletes exactly that and nothing reachable', async () => {
    const x = await withDiscardedBranch();
    const dry = await store.gc({ conversationId: x.id, now: days(91), dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.nodes.sort()).toEqual([x.b, x.c].sort());
    expect(dry.reflogEntries).toHaveLength(3);
    expect(await nodeIds(x.id)).toHaveLength(5);

    const done = await store.gc({ conversationId: x.id, now: days(91) });
    expect(done.nodes.sort()).toEqual(dry.nodes.sort());
    expect(done.reflogEntries.sort()).toEqual(dry.reflogEntries.sort());
    expect(await nodeIds(x.id)).toEqual([x.root, x.a, x.d].sort());
    // What stays is whole: HEAD's path, the newest reflog row, and a clean fsck.
    expect(must(await store.path(x.id)).map((n) => n.id)).toEqual([x.root, x.a, x.d]);
    expect(must(await store.reflog(x.id, { limit: 10 })).entries).toEqual([
      expect.objectContaining({ index: 0, action: 'append', oldHead: x.a, newHead: x.d }),
    ]);
    expect((await store.fsck(x.id))?.problems).toEqual([]);
  });

  it('never deletes what a retained reflog entry reaches, even off every ref', async () => {
    const x = await withDiscardedBranch();
    // A recent visit to c (recover) and back keeps c's reflog rows young.
    must(await store.move({ conversationId: x.id, to: x.c, action: 'recover', actorId: 'u' }));
    must(await store.move({ conversationId: x.id, to: x.d, action: 'rewind', actorId: 'u' }));
    const report = await store.gc({ conversationId: x.id, now: days(20) });
    expect(report.nodes).toEqual([]);
    expect(await nodeIds(x.id)).toContain(x.c);
  });

  it('is refused to the application role outside its function', async () => {
    await expect(t.client.query(`DELETE FROM nodes WHERE false`)).rejects.toThrow();
  });
});

describe('fsck', () => {
  it('is clean for a healthy conversation and counts what it checked', async () => {
    const x = await withDiscardedBranch();
    expect(await store.fsck(x.id)).toEqual({ ok: true, checked: 5 + 4, problems: [] });
  });

  it('finds rows tampered with through the privileged path', async () => {
    const x = await withDiscardedBranch();
    // A superuser can switch the triggers off (session_replication_role) and rewrite history.
    const admin = new Client({ connectionString: t.db.url });
    await admin.connect();
    try {
      await admin.query(`SET session_replication_role = replica`);
      await admin.query(`UPDATE nodes SET payload = '{"text":"forged"}' WHERE id = decode($1, 'hex')`, [x.b]);
      await admin.query(`DELETE FROM reflog WHERE conversation_id = $1 AND seq = 2`, [x.id]);
    } finally {
      await admin.end();
    }
    const report = await store.fsck(x.id);
    expect(report?.ok).toBe(false);
    expect(report?.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'hash_mismatch', nodeId: x.b }),
        expect.objectContaining({ code: 'reflog_gap' }),
      ]),
    );
  });

  it('answers null for a conversation that does not exist', async () => {
    expect(await store.fsck('00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});
