import type { NodeResponse, ReflogPage, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answerAll, ask, createConversation, path, settled, turn } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';
import { connect, record, request, type ClientSocket } from './support/test-socket';

/** A reply with words, as the chat shows it (the offline model's tool-use turns have empty text). */
const said = (n: TreeNode) => n.kind === 'assistant' && (n as TreeNode<'assistant'>).payload.text !== '';

/** The input `reply` answered: the nearest user message or answer above it on `nodes`. */
function inputOf(nodes: readonly TreeNode[], reply: TreeNode): TreeNode {
  const above = nodes.slice(0, nodes.indexOf(reply));
  return above.findLast((n) => n.kind === 'user' || n.kind === 'response')!;
}

describe('regenerate: another answer to an assistant reply', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let userId: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('api_regenerate');
    api = await startApi({ DATABASE_URL: db.url });
    ({
      token,
      user: { id: userId },
    } = await register(api, 'regenerator'));
  }, 30_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await api?.close();
    await db?.drop();
  });

  const regenerate = (id: string, nodeId: string, body: object = {}) =>
    call<{ head: string }>(api, 'POST', `/api/conversations/${id}/nodes/${nodeId}/regenerate`, {
      token,
      body,
    });
  const reflog = async (id: string) =>
    (await call<ReflogPage>(api, 'GET', `/api/conversations/${id}/reflog?limit=500`, { token })).body.entries;
  const node = async (id: string, nodeId: string) =>
    call<NodeResponse>(api, 'GET', `/api/conversations/${id}/nodes/${nodeId}`, { token });

  /**
   * What every regenerate must leave behind once the agent has answered again: the path up to the
   * input unchanged, a new branch under the input holding a new reply, the old reply still in the
   * tree, and in the reflog the `regenerate` move followed only by the agent's appends.
   */
  async function expectRegenerated(
    id: string,
    before: { nodes: TreeNode[]; reply: TreeNode; input: TreeNode; head: string },
  ) {
    const { nodes, reply, input, head } = before;
    const now = await path(api, token, id);
    expect(now.slice(0, input.depth + 1)).toEqual(nodes.slice(0, input.depth + 1));
    const oldChild = nodes[input.depth + 1]!;
    const newChild = now[input.depth + 1]!;
    expect(newChild.parentId).toBe(input.id);
    expect(newChild.id).not.toBe(oldChild.id);
    const newReply = now.slice(input.depth + 1).find(said);
    expect(newReply).toBeDefined();
    expect(newReply!.id).not.toBe(reply.id);

    expect((await node(id, reply.id)).status).toBe(200);
    expect((await node(id, input.id)).body.childIds).toEqual([oldChild.id, newChild.id]);

    const entries = await reflog(id);
    const at = entries.findIndex((e) => e.action === 'regenerate');
    expect(entries[at]).toMatchObject({ oldHead: head, newHead: input.id, actorId: userId });
    expect(at).toBeGreaterThan(0);
    expect(entries.slice(0, at).map((e) => e.action)).toEqual(Array(at).fill('append'));
  }

  it("runs the tidying agent again from the user's message: a sibling branch, the old one kept", async () => {
    const c = await createConversation(api, token);
    const { head } = await turn(api, token, c.id, 'hello');
    const nodes = await path(api, token, c.id);
    const reply = nodes.find(said)!;
    const input = inputOf(nodes, reply);
    expect(input).toMatchObject({ kind: 'user', payload: { text: 'hello' } });

    const res = await regenerate(c.id, reply.id, { expectedHead: head });
    expect(res).toEqual({ status: 201, body: { head: input.id } });
    // the turn asks its question again on the new branch: answer it as before
    await answerAll(api, token, c.id);
    await expectRegenerated(c.id, { nodes, reply, input, head });
  });

  it("runs from the user's answer when the reply followed one (HEAD on a `response` node)", async () => {
    const c = await createConversation(api, token);
    await ask(api, token, c.id);
    const { head } = await answerAll(api, token, c.id);
    const nodes = await path(api, token, c.id);
    // the reply after the answer to the agent's first question ('Got it: this space is for …')
    const reply = nodes.find((n) => said(n) && inputOf(nodes, n).kind === 'response')!;
    const input = inputOf(nodes, reply);
    expect(input).toMatchObject({ kind: 'response', payload: { action: 'accept' } });

    expect(await regenerate(c.id, reply.id.slice(0, 12))).toEqual({ status: 201, body: { head: input.id } });
    await answerAll(api, token, c.id);
    await expectRegenerated(c.id, { nodes, reply, input, head });
  });

  it('runs the concierge again', async () => {
    const c = await createConversation(api, token, { agent: 'concierge' });
    const { head } = await turn(api, token, c.id, 'hello');
    const nodes = await path(api, token, c.id);
    const reply = nodes.findLast(said)!;
    const input = inputOf(nodes, reply);
    expect(input).toMatchObject({ kind: 'user', payload: { text: 'hello' } });

    expect(await regenerate(c.id, reply.id, { expectedHead: head })).toEqual({
      status: 201,
      body: { head: input.id },
    });
    await settled(api, token, c.id);
    await expectRegenerated(c.id, { nodes, reply, input, head });
  });

  it('leaves a turn waiting on its question without stopping it (no `cancel`, then `regenerate`)', async () => {
    const c = await createConversation(api, token);
    const q = await ask(api, token, c.id);
    const nodes = await path(api, token, c.id);
    const reply = nodes.find(said)!;
    // no body at all: expectedHead is optional, and so is the body that would hold it
    const res = await fetch(api.url(`/api/conversations/${c.id}/nodes/${reply.id}/regenerate`), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(201);
    await answerAll(api, token, c.id);
    const entries = await reflog(c.id);
    const actions = entries.map((e) => e.action);
    const at = actions.indexOf('regenerate');
    expect(actions[at + 1]).toBe('append');
    expect(actions).not.toContain('cancel');
    // The branch left behind still holds its question, unanswered and not stopped: the elicit
    // node is its tip.
    const left = await call<TreeNode>(
      api,
      'GET',
      `/api/conversations/${c.id}/nodes/${entries[at]!.oldHead}`,
      {
        token,
      },
    );
    expect(left.body).toMatchObject({ kind: 'elicit', payload: { elicitId: q.elicitId } });
  });

  it('over the socket: acked with the new HEAD, and the room sees the move and the new reply', async () => {
    const c = await createConversation(api, token);
    const { head } = await turn(api, token, c.id, 'hello');
    const nodes = await path(api, token, c.id);
    const reply = nodes.find(said)!;
    const input = inputOf(nodes, reply);

    const socket = await connect(api, token);
    sockets.push(socket);
    expect(await request(socket, 'conversation:join', { conversationId: c.id })).toMatchObject({ ok: true });
    const heads = record(socket, 'head');
    const appended = record(socket, 'node');
    const ack = await request(socket, 'message:regenerate', { conversationId: c.id, nodeId: reply.id });
    expect(ack).toEqual({ ok: true, head: input.id });
    expect(await heads.next((e) => e.reflog.action === 'regenerate')).toEqual({
      conversationId: c.id,
      head: input.id,
      reflog: expect.objectContaining({ action: 'regenerate', oldHead: head, newHead: input.id, index: 0 }),
    });
    const child = await appended.next((e) => e.node.parentId === input.id);
    expect(child.node.id).not.toBe(nodes[input.depth + 1]!.id);
    await answerAll(api, token, c.id);
    await expectRegenerated(c.id, { nodes, reply, input, head });
  });

  it('refuses what is not an assistant reply (400 naming nodeId), an unknown node (404) and a stale expectedHead (409)', async () => {
    const c = await createConversation(api, token);
    const { head } = await turn(api, token, c.id, 'hello');
    const nodes = await path(api, token, c.id);
    const user = nodes.find((n) => n.kind === 'user')!;
    const reply = nodes.find(said)!;

    for (const refused of [user, nodes[0]!, nodes.find((n) => n.kind === 'elicit')!]) {
      const res = await call<{ error: { details: { field: string }[] } }>(
        api,
        'POST',
        `/api/conversations/${c.id}/nodes/${refused.id}/regenerate`,
        { token, body: {} },
      );
      expect([refused.kind, res.status, res.body]).toEqual([refused.kind, 400, errorOf('invalid_request')]);
      expect(res.body.error.details.map((d) => d.field)).toEqual(['nodeId']);
    }
    expect(await regenerate(c.id, 'b'.repeat(64))).toEqual({ status: 404, body: errorOf('not_found') });
    expect(await regenerate(c.id, reply.id, { expectedHead: c.head })).toEqual({
      status: 409,
      body: { error: expect.objectContaining({ code: 'conflict', details: { head } }) },
    });
    expect((await regenerate(c.id, reply.id, { expectedHead: 'not-a-node' })).status).toBe(400);

    const socket = await connect(api, token);
    sockets.push(socket);
    expect(await request(socket, 'message:regenerate', { conversationId: c.id, nodeId: user.id })).toEqual({
      ok: false,
      error: expect.objectContaining({
        code: 'invalid_request',
        details: [expect.objectContaining({ field: 'nodeId' })],
      }),
    });

    expect(await path(api, token, c.id)).toEqual(nodes);
    expect((await reflog(c.id)).some((e) => e.action === 'regenerate')).toBe(false);
  });
});
