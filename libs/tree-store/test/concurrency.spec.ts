import { createTestStore, user, type TestStore } from './test-store';

const CLIENTS = 50;
const ATTEMPTS_EACH = 200;

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore('concurrency', { poolSize: 20 });
});
afterAll(() => t.close());

/**
 * Each client makes ATTEMPTS_EACH appends with compare-and-swap on the HEAD it last saw; after a
 * win it knows the new HEAD, after a conflict it takes the HEAD the conflict reports (as a client of
 * a 409 would). Some attempts win, many lose; none may be lost or silently forked.
 */
it(`${CLIENTS} clients × ${ATTEMPTS_EACH} compare-and-swap appends on one conversation lose nothing`, async () => {
  const { conversation } = await t.store.createConversation({ ownerId: 'u', agent: 'tidying' });
  const id = conversation.id;
  const acknowledged: { node: string; expected: string }[] = [];
  let conflicts = 0;
  const client = async (c: number) => {
    let seen = conversation.head;
    for (let attempt = 0; attempt < ATTEMPTS_EACH; attempt++) {
      const result = await t.store.append({
        conversationId: id,
        nodes: [user(`client ${c} attempt ${attempt}`)],
        expectedHead: seen,
        actorId: `client-${c}`,
      });
      if (result.ok) {
        acknowledged.push({ node: result.value.nodes[0]!.id, expected: seen });
        seen = result.value.head;
      } else if (result.error.code === 'conflict') {
        seen = result.error.head;
        conflicts++;
      } else {
        throw new Error(result.error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));

  expect(acknowledged.length + conflicts).toBe(CLIENTS * ATTEMPTS_EACH);
  expect(acknowledged.length).toBeGreaterThan(0);
  expect(conflicts).toBeGreaterThan(0);
  // Exactly one winner per expected HEAD: no two acknowledged appends saw the same HEAD.
  expect(new Set(acknowledged.map((a) => a.expected)).size).toBe(acknowledged.length);
  // Every acknowledged node is on the one path (no silent fork), and nothing else was written.
  const path = await t.store.path(id);
  if (!path.ok) throw new Error(path.error.message);
  expect(path.value).toHaveLength(acknowledged.length + 1);
  expect(new Set(path.value.map((n) => n.id))).toEqual(
    new Set([conversation.head, ...acknowledged.map((a) => a.node)]),
  );
  const [count] = await t.client.query<{ n: string }>(
    `SELECT count(*) AS n FROM nodes WHERE conversation_id = $1`,
    [id],
  );
  expect(Number(count?.n)).toBe(acknowledged.length + 1);
  const log = await t.store.reflog(id, { limit: 1 });
  expect(log.ok && log.value.entries[0]?.index).toBe(0);
  expect((await t.store.fsck(id))?.ok).toBe(true);
}, 120_000);
