import { PGlite } from '@electric-sql/pglite';
import { migrateDown, migrateUp, migrations } from '@sweatpants/migrations';
import { PgliteSqlClient, TreeStore } from '../src';
import { user } from './test-store';

/** The embedded default (`npm start` with no DATABASE_URL): the same migrations and operations. */
describe('on embedded PGlite', () => {
  let db: PGlite;
  let store: TreeStore;
  beforeAll(async () => {
    db = await PGlite.create();
    expect(await migrateUp({ pglite: db })).toHaveLength(migrations.length);
    store = new TreeStore(new PgliteSqlClient(db, { role: 'sweatpants_app' }));
  }, 60_000);
  afterAll(() => db.close());

  const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  it('runs the store operations end to end', async () => {
    const { conversation, root } = await store.createConversation({
      ownerId: 'u',
      agent: 'tidying',
      title: 'embedded',
    });
    const id = conversation.id;
    const first = must(
      await store.append({ conversationId: id, nodes: [user('a'), user('b'), user('c')], actorId: 'u' }),
    );
    expect(
      await store.append({ conversationId: id, nodes: [user('x')], expectedHead: root.id, actorId: 'u' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'conflict', head: first.head },
    });
    must(await store.move({ conversationId: id, to: 'HEAD~2', action: 'rewind', actorId: 'u' }));
    must(
      await store.edit({
        conversationId: id,
        nodeId: first.nodes[0]!.id,
        text: 'a2',
        authorId: 'u',
        actorId: 'u',
      }),
    );
    const log = must(await store.reflog(id, { limit: 10 }));
    expect(log.entries.map((e) => e.action)).toEqual(['edit', 'rewind', 'append', 'create']);
    must(await store.recover({ conversationId: id, reflogId: log.entries[2]!.id, actorId: 'u' }));
    expect(must(await store.path(id)).map((n) => (n.payload as { text?: string }).text)).toEqual([
      undefined,
      'a',
      'b',
      'c',
    ]);
    expect(must(await store.tree(id, { limit: 100 })).nodes).toHaveLength(5);
    const state = must(
      await store.stateAt(id, 'HEAD', { name: 'n', version: 1, initial: 0, apply: (s: number) => s + 1 }),
    );
    expect(state.state).toBe(4);
    const squashed = must(
      await store.squashAndRebase({
        conversationId: id,
        fromId: first.nodes[0]!.id,
        toId: first.nodes[1]!.id,
        text: 'ab',
        authorId: 'agent:c',
        actorId: 's',
      }),
    );
    expect(squashed.rebased).toBe(1);
    const forked = must(await store.fork({ conversationId: id, at: 'HEAD', ownerId: 'v', actorId: 'v' }));
    expect(must(await store.path(forked.conversation.id))).toHaveLength(3);
    expect((await store.fsck(id))?.ok).toBe(true);
    expect((await store.gc({ conversationId: id, dryRun: true })).nodes).toEqual([]);
  });

  it('refuses to rewrite history there too', async () => {
    const client = new PgliteSqlClient(db, { role: 'sweatpants_app' });
    await expect(client.query(`UPDATE nodes SET author_id = 'x'`)).rejects.toThrow();
    await expect(client.query(`DELETE FROM reflog`)).rejects.toThrow();
  });

  it('migrates down and up again', async () => {
    const scratch = await PGlite.create();
    try {
      await migrateUp({ pglite: scratch });
      await migrateDown({ pglite: scratch }, migrations.length);
      const { rows } = await scratch.query(
        `SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'nodes'`,
      );
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await scratch.close();
    }
  }, 60_000);
});
