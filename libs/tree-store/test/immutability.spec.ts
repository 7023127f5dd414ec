import { Client } from 'pg';
import { createTestStore, user, type TestStore } from './test-store';

let t: TestStore;
let conversationId: string;
beforeAll(async () => {
  t = await createTestStore('immutability');
  const { conversation } = await t.store.createConversation({ ownerId: 'u', agent: 'tidying' });
  conversationId = conversation.id;
  const appended = await t.store.append({ conversationId, nodes: [user('keep me')], actorId: 'u' });
  expect(appended.ok).toBe(true);
});
afterAll(() => t.close());

describe('as the application role, the database refuses to rewrite history', () => {
  it('the store works as sweatpants_app', async () => {
    const [row] = await t.client.query<{ who: string }>(`SELECT current_user AS who`);
    expect(row?.who).toBe('sweatpants_app');
  });

  it.each([
    ['UPDATE nodes', `UPDATE nodes SET payload = '{"text":"forged"}' WHERE kind = 'user'`],
    ['DELETE nodes', `DELETE FROM nodes WHERE kind = 'user'`],
    ['TRUNCATE nodes', `TRUNCATE nodes CASCADE`],
    ['UPDATE reflog', `UPDATE reflog SET actor_id = 'someone else'`],
    ['DELETE reflog', `DELETE FROM reflog`],
    ['TRUNCATE reflog', `TRUNCATE reflog`],
  ])('%s fails', async (_, sql) => {
    await expect(t.client.query(sql)).rejects.toThrow();
  });

  it('even the owner role cannot update or delete nodes and reflog rows, or truncate them', async () => {
    const owner = new Client({ connectionString: t.db.url });
    await owner.connect();
    try {
      await expect(owner.query(`UPDATE nodes SET author_id = 'x'`)).rejects.toThrow(/immutable/);
      await expect(owner.query(`DELETE FROM reflog`)).rejects.toThrow(/immutable/);
      await expect(owner.query(`TRUNCATE nodes CASCADE`)).rejects.toThrow(/immutable/);
    } finally {
      await owner.end();
    }
  });

  it('a ref cannot move without its reflog row, nor a reflog row break continuity', async () => {
    await expect(
      t.client.query(`UPDATE refs SET node_id = (SELECT parent_id FROM nodes WHERE kind = 'user' LIMIT 1)`),
    ).rejects.toThrow(/without a reflog row/);
    await expect(
      t.client.query(
        `INSERT INTO reflog (conversation_id, ref, seq, old_node, new_node, action, actor_id)
         SELECT conversation_id, 'HEAD', 99, NULL, id, 'rewind', 'x' FROM nodes WHERE kind = 'root' LIMIT 1`,
      ),
    ).rejects.toThrow(/does not continue/);
  });

  it('nothing was changed by the attempts', async () => {
    const path = await t.store.path(conversationId);
    expect(path.ok && path.value.map((n) => n.payload)).toEqual([{ conversationId }, { text: 'keep me' }]);
    expect((await t.store.fsck(conversationId))?.ok).toBe(true);
  });
});
