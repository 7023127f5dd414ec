import type { ReflogEntry, TreeNode, TreePage } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, settled } from './support/flows';
import { call, register, startApi, type TestApi } from './support/test-api';
import { connect, record, request, type ClientSocket } from './support/test-socket';

/**
 * One conversation, many hands on it at once: three tabs over Socket.IO and a script over HTTP send
 * messages, stop the agent, rewind and recover, all in the same instant. Whatever order the api
 * picks, it must pick one: each command answered once (done, or refused in PROTOCOL.md's error
 * shape), every HEAD move in the reflog once and chained to the one before, and every tab told the
 * same story in the same order.
 */
describe('one conversation driven from many sockets and HTTP at once', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('api_actor');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'actor'));
  }, 30_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await api?.close();
    await db?.drop();
  });

  /** What one command came back with: done, or refused with a code. */
  type Outcome = { ok: true; value: unknown } | { ok: false; code: string };

  const viaSocket = async (
    ack: Promise<{ ok: true } | { ok: false; error: { code: string } }>,
  ): Promise<Outcome> => {
    const answer = await ack;
    return answer.ok ? { ok: true, value: answer } : { ok: false, code: answer.error.code };
  };
  const viaHttp = async (method: string, path: string, body?: unknown): Promise<Outcome> => {
    const answer = await call<{ error?: { code: string } }>(api, method, path, {
      token,
      ...(body === undefined ? {} : { body }),
    });
    if (answer.status < 300) return { ok: true, value: answer.body };
    // A refusal is one of PROTOCOL.md's: a conflict with where HEAD is, never a crash.
    expect(answer.status).toBeLessThan(500);
    return { ok: false, code: answer.body.error?.code ?? `http ${answer.status}` };
  };

  const reflogOf = async (id: string): Promise<ReflogEntry[]> =>
    (
      (await viaHttp('GET', `/api/conversations/${id}/reflog?limit=200`)) as {
        value: { entries: ReflogEntry[] };
      }
    ).value.entries;

  /** Waits until the agent waits and HEAD has stopped moving (a recovered message gets its reply). */
  const quiet = async (id: string): Promise<void> => {
    for (let before = ''; ;) {
      await settled(api, token, id);
      const now = (await reflogOf(id)).map((e) => e.id).join();
      if (now === before) return;
      before = now;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  it('applies the commands in one order, each once, with the reflog continuous and every tab seeing the same events', async () => {
    const c = await createConversation(api, token);
    const tabs = await Promise.all([0, 1, 2].map(() => connect(api, token)));
    sockets.push(...tabs);
    for (const tab of tabs) await request(tab, 'conversation:join', { conversationId: c.id });
    const heads = tabs.map((tab) => record(tab, 'head'));
    const nodes = tabs.map((tab) => record(tab, 'node'));
    const [a, b, t3] = tabs as [ClientSocket, ClientSocket, ClientSocket];
    const id = c.id;

    // First wave: three messages from three places, and a stop, at once.
    const first = await Promise.all([
      viaSocket(request(a, 'message:send', { conversationId: id, text: 'the mugs on the desk' })),
      viaSocket(request(b, 'message:send', { conversationId: id, text: 'the papers by the lamp' })),
      viaHttp('POST', `/api/conversations/${id}/messages`, { text: 'a lamp with no bulb' }),
      viaSocket(request(t3, 'conversation:cancel', { conversationId: id })),
    ]);
    await settled(api, token, id);

    // Second wave: back to the start, forward again, a message and a stop, at once.
    const entries = await reflogOf(id);
    // The first message's move: recovering it brings the first wave's branch back after the rewind.
    const firstMessage = entries.findLast((e) => e.action === 'append') as ReflogEntry;
    const second = await Promise.all([
      viaSocket(request(a, 'conversation:rewind', { conversationId: id, to: c.head })),
      viaHttp('POST', `/api/conversations/${id}/recover`, { reflogId: firstMessage.id }),
      viaSocket(request(b, 'message:send', { conversationId: id, text: 'and a pile of cables' })),
      viaHttp('POST', `/api/conversations/${id}/cancel`),
      viaSocket(request(t3, 'message:send', { conversationId: id, text: 'the chair is fine' })),
    ]);
    await quiet(id);

    // Each command was answered once, and a refusal is a conflict with where HEAD was (the turn was
    // still running, or HEAD had moved), never anything else.
    const refusals = [...first, ...second].flatMap((o) => (o.ok ? [] : [o.code]));
    expect(refusals).toEqual(refusals.map(() => 'conflict'));
    // At least one message of each wave got through: the api did not refuse everyone.
    expect(first.slice(0, 3).some((o) => o.ok)).toBe(true);

    // The reflog: every move chained to the one before, oldest first, none twice.
    const reflog = (await reflogOf(id)).slice().reverse();
    for (let i = 1; i < reflog.length; i++) {
      expect(reflog[i]!.oldHead).toBe(reflog[i - 1]!.newHead);
    }
    expect(new Set(reflog.map((e) => e.id)).size).toBe(reflog.length);

    // Every tab heard every move after it joined, in the reflog's order, and the same nodes.
    const joinedAt = reflog.findIndex((e) => e.newHead === c.head);
    const after = reflog.slice(joinedAt + 1).map((e) => e.id);
    const until = (seen: () => number) =>
      new Promise<void>((resolve, reject) => {
        const started = Date.now();
        const tick = () => {
          if (seen() >= after.length) resolve();
          else if (Date.now() - started > 5_000) reject(new Error('a tab missed a HEAD move'));
          else setTimeout(tick, 20);
        };
        tick();
      });
    for (const h of heads) await until(() => h.seen.length);
    for (const h of heads) expect(h.seen.map((e) => e.reflog.id)).toEqual(after);
    const nodeIds = nodes.map((n) => n.seen.map((e) => e.node.id));
    expect(nodeIds[1]).toEqual(nodeIds[0]);
    expect(nodeIds[2]).toEqual(nodeIds[0]);
    expect(new Set(nodeIds[0]).size).toBe(nodeIds[0]!.length);

    // Each message accepted is in the tree once, with the words it was sent with: at once, or,
    // sent while the agent worked, queued and then taken (a `user` node naming it as `queuedId`).
    const sent = [...first, ...second]
      .filter((o): o is { ok: true; value: { node: TreeNode } } => o.ok)
      .map((o) => o.value.node)
      .filter((n): n is TreeNode<'user'> => n?.kind === 'user');
    const tree = await viaHttp('GET', `/api/conversations/${id}/tree?limit=500`);
    if (!tree.ok) throw new Error('the tree could not be read');
    const stored = (tree.value as TreePage).nodes.flatMap((n) =>
      n.kind === 'user' ? [n as unknown as TreeNode<'user'>] : [],
    );
    for (const node of sent) {
      const { queued, ...words } = node.payload;
      const holding = stored.filter((n) => (queued ? n.payload.queuedId === node.id : n.id === node.id));
      expect(holding).toHaveLength(1);
      expect(holding[0]?.payload).toMatchObject(words);
    }
    expect(new Set(sent.map((n) => n.id)).size).toBe(sent.length);
  }, 60_000);
});
