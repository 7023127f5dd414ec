import * as fc from 'fast-check';
import type { Result } from '@sweatpants/domain';
import type { Appended, Moved, StoreError } from '../src';
import { createTestStore, user, type TestStore } from './test-store';

const MOVES = 10_000;

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore('reflog_continuity', { poolSize: 8 });
});
afterAll(() => t.close());

it(`over ${MOVES} random moves every reflog row starts where the previous one ended`, async () => {
  const { conversation } = await t.store.createConversation({ ownerId: 'u', agent: 'tidying' });
  const id = conversation.id;
  const known: string[] = [conversation.head];
  const random = fc.sample(fc.tuple(fc.nat(99), fc.nat()), { numRuns: MOVES, seed: 42 });
  let heads = 0;
  for (const [dice, pick] of random) {
    const target = known[pick % known.length] as string;
    const result: Result<Appended | Moved, StoreError> =
      dice < 40
        ? await t.store.append({ conversationId: id, nodes: [user(`m${heads}`)], actorId: 'u' })
        : dice < 60
          ? await t.store.append({
              conversationId: id,
              nodes: [user(`b${heads}`)],
              parentId: target,
              actorId: 'u',
            })
          : dice < 85
            ? await t.store.move({ conversationId: id, to: target, action: 'rewind', actorId: 'u' })
            : await t.store.move({
                conversationId: id,
                to: `HEAD@{${pick % Math.min(heads + 1, 50)}}`,
                action: 'recover',
                actorId: 'u',
              });
    if (!result.ok) throw new Error(result.error.message);
    if ('nodes' in result.value) known.push(...result.value.nodes.map((n) => n.id));
    heads++;
  }

  const rows = await t.client.query<{ seq: string; old_node: string | null; new_node: string }>(
    `SELECT seq, encode(old_node, 'hex') AS old_node, encode(new_node, 'hex') AS new_node
     FROM reflog WHERE conversation_id = $1 ORDER BY seq`,
    [id],
  );
  expect(rows).toHaveLength(MOVES + 1);
  rows.forEach((row, i) => {
    expect(Number(row.seq)).toBe(i);
    expect(row.old_node).toBe(i === 0 ? null : rows[i - 1]?.new_node);
  });
  // HEAD never moved without a row: where it is now is where the newest row put it.
  const head = await t.store.head(id);
  expect(head?.id).toBe(rows.at(-1)?.new_node);
  expect((await t.store.fsck(id))?.ok).toBe(true);
}, 240_000);
