/**
 * The bench's conversations, built through the store the way the api uses it: deep ones (a turn's
 * nodes per append, state folded after each) and long reflogs.
 */
import type { Client } from 'pg';
import type { TreeNode } from '@sweatpants/domain';
import type { PgSqlClient, TreeStore } from '../src';
import { insertFloor } from './floor';
import { AGENT_AUTHOR, chatState, message, mulberry32, OWNER } from './messages';
import { elapsedMs, note } from './timing';

export interface Deep {
  depth: number;
  conversationId: string;
  head: string;
  /** a reflog entry whose new HEAD is `head`, for store.recover */
  headReflogId: string;
}

export function must<T>(
  result: { ok: true; value: T } | { ok: false; error: { message: string } },
  what: string,
): T {
  if (!result.ok) throw new Error(`${what}: ${result.error.message}`);
  return result.value;
}

/**
 * A conversation `depth` nodes deep, built the way an agent uses the store: each turn's nodes go in
 * one store.append (a batch of `batch` nodes with expectedHead), and after each append the agent
 * folds its state at HEAD with store.stateAt — which is what caches a snapshot every
 * SNAPSHOT_INTERVAL nodes along the path, so state at HEAD later reads at most that many nodes.
 * The same nodes (root included) go into the floor table.
 */
export async function buildDeep(
  store: TreeStore,
  admin: Client,
  depth: number,
  batch: number,
): Promise<Deep> {
  const started = process.hrtime.bigint();
  const rand = mulberry32(depth);
  const { conversation, root } = await store.createConversation({
    ownerId: OWNER,
    agent: 'tidying',
    title: `bench ${depth}`,
  });
  const nodes: TreeNode[] = [root];
  let head = root.id;
  let headReflogId = '';
  for (let d = 0; d < depth;) {
    const n = Math.min(batch, depth - d);
    const drafts = Array.from({ length: n }, (_, i) => message(rand, d + i + 1));
    const appended = must(
      await store.append({
        conversationId: conversation.id,
        nodes: drafts,
        expectedHead: head,
        actorId: AGENT_AUTHOR,
      }),
      `append at depth ${d}`,
    );
    nodes.push(...appended.nodes);
    head = appended.head;
    headReflogId = appended.reflog.id;
    d += n;
    must(await store.stateAt(conversation.id, 'HEAD', chatState), 'stateAt while building');
  }
  await insertFloor(admin, conversation.id, nodes);
  const state = must(await store.stateAt(conversation.id, 'HEAD', chatState), 'stateAt').state;
  if (state.user + state.assistant !== depth)
    throw new Error(`state at depth ${depth} counts ${state.user + state.assistant}`);
  note(
    `built a conversation ${depth} deep in ${(elapsedMs(started) / 1000).toFixed(1)} s (batches of ${batch})`,
  );
  return { depth, conversationId: conversation.id, head, headReflogId };
}

/**
 * A conversation whose HEAD reflog has `entries` rows. create + one append make two; the bulk is
 * cheap HEAD moves between the node and the root made by the store's own SQL function tree_move
 * (as the app role, through the store's pool, with every trigger in force: continuity, the
 * ref-logged check at commit), many calls per statement so the build takes seconds, not an
 * fsync per move; the newest (up to) 98 are store.move / store.recover calls.
 */
export async function buildReflog(store: TreeStore, client: PgSqlClient, entries: number): Promise<string> {
  const started = process.hrtime.bigint();
  const { conversation, root } = await store.createConversation({
    ownerId: OWNER,
    agent: 'tidying',
    title: `reflog ${entries}`,
  });
  const id = conversation.id;
  const appended = must(
    await store.append({
      conversationId: id,
      nodes: [message(mulberry32(entries), 1)],
      expectedHead: root.id,
      actorId: OWNER,
    }),
    'append',
  );
  const tail = Math.min(98, entries - 2);
  const bulk = entries - 2 - tail;
  const CHUNK = 1_000;
  for (let from = 1; from <= bulk; from += CHUNK) {
    const to = Math.min(bulk, from + CHUNK - 1);
    const [row] = await client.query<{ moved: number }>(
      `SELECT count(*)::int AS moved FROM generate_series($2::int, $3::int) g
       CROSS JOIN LATERAL tree_move(p_conversation => $1::uuid, p_ref => 'HEAD', p_expected => NULL,
         p_target => CASE WHEN g % 2 = 1 THEN $4 ELSE $5 END,
         p_action => CASE WHEN g % 2 = 1 THEN 'rewind' ELSE 'recover' END,
         p_actor => $6, p_message => CASE WHEN g % 2 = 1 THEN 'rewind: to HEAD~1' ELSE 'recover: bench' END) m
       WHERE m.status = 'ok'`,
      [id, from, to, root.id, appended.head, OWNER],
    );
    if (row?.moved !== to - from + 1) throw new Error(`bulk moves: ${row?.moved} of ${to - from + 1} ok`);
  }
  let head = bulk % 2 === 1 ? root.id : appended.head;
  for (let i = 0; i < tail; i++) {
    const moved =
      head === appended.head
        ? must(
            await store.move({
              conversationId: id,
              to: 'HEAD~1',
              action: 'rewind',
              expectedHead: head,
              actorId: OWNER,
            }),
            'rewind',
          )
        : must(
            await store.recover({
              conversationId: id,
              reflogId: appended.reflog.id,
              expectedHead: head,
              actorId: OWNER,
            }),
            'recover',
          );
    head = moved.head;
  }
  const [count] = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM reflog WHERE conversation_id = $1`,
    [id],
  );
  if (count?.n !== entries) throw new Error(`reflog of ${entries} has ${count?.n} rows`);
  note(`built a reflog of ${entries} entries in ${(elapsedMs(started) / 1000).toFixed(1)} s`);
  return id;
}
