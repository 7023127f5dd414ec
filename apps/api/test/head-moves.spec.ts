import type { HeadMove, NodeAndHead, ReflogPage } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { conversation, createConversation, kinds, path, say, waitingOn } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

describe('moves of HEAD from outside the runner: rewind, edit, recover', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_head_moves');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'mover'));
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const reflog = async (id: string) =>
    (await call<ReflogPage>(api, 'GET', `/api/conversations/${id}/reflog`, { token })).body.entries;

  it('rewinds to a ref: HEAD moves (reflog `rewind`), the old branch stays, the chat prompt follows HEAD', async () => {
    const c = await createConversation(api, token);
    await say(api, token, c.id, 'one');
    await say(api, token, c.id, 'two');
    const before = await path(api, token, c.id);
    const res = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: 'HEAD~2', expectedHead: before.at(-1)!.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      head: before[2]!.id,
      reflog: expect.objectContaining({
        action: 'rewind',
        oldHead: before.at(-1)!.id,
        newHead: before[2]!.id,
        index: 0,
      }),
    });
    expect((await path(api, token, c.id)).map((n) => n.id)).toEqual(before.slice(0, 3).map((n) => n.id));
    const after = await waitingOn(api, token, c.id);
    expect(after.pendingElicit?.elicitId).toBe(`chat-${before[2]!.id}`);
    // the discarded branch is still there to read
    expect(
      (await call(api, 'GET', `/api/conversations/${c.id}/nodes/${before.at(-1)!.id}`, { token })).status,
    ).toBe(200);
  });

  it('refuses a rewind with a stale expectedHead (409 with the current HEAD), or to a ref that does not resolve', async () => {
    const c = await createConversation(api, token);
    await say(api, token, c.id, 'one');
    const head = (await conversation(api, token, c.id)).head;
    const stale = await call(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: 'HEAD~1', expectedHead: c.head },
    });
    expect(stale).toEqual({
      status: 409,
      body: { error: expect.objectContaining({ code: 'conflict', details: { head } }) },
    });
    expect(
      (await call(api, 'POST', `/api/conversations/${c.id}/rewind`, { token, body: { to: 'HEAD~9' } }))
        .status,
    ).toBe(404);
    const bad = await call<{ error: { details: { field: string }[] } }>(
      api,
      'POST',
      `/api/conversations/${c.id}/rewind`,
      {
        token,
        body: { to: '???' },
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]!.field).toBe('to');
    expect((await call(api, 'POST', `/api/conversations/${c.id}/rewind`, { token, body: {} })).status).toBe(
      400,
    );
    expect((await conversation(api, token, c.id)).head).toBe(head);
  });

  it('edits a user message: a sibling with the new text (reflog `edit`), and the agent answers it', async () => {
    const c = await createConversation(api, token);
    await say(api, token, c.id, 'my desk is a mess');
    await say(api, token, c.id, 'and the shelf');
    const before = await path(api, token, c.id);
    const original = before[3]!;
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/nodes/${original.id}/edit`, {
      token,
      body: { text: 'and the wardrobe', expectedHead: before.at(-1)!.id },
    });
    expect(res.status).toBe(201);
    expect(res.body.node).toMatchObject({
      kind: 'user',
      parentId: original.parentId,
      payload: { text: 'and the wardrobe' },
    });
    expect(res.body.node.id).not.toBe(original.id);
    expect(res.body.head).toBe(res.body.node.id);
    await waitingOn(api, token, c.id);
    // newest first: the agent's reply to the edited message, then the edit
    expect((await reflog(c.id)).slice(0, 2)).toEqual([
      expect.objectContaining({ action: 'append', oldHead: res.body.node.id }),
      expect.objectContaining({ action: 'edit', newHead: res.body.node.id }),
    ]);
    const after = await path(api, token, c.id);
    expect(kinds(after)).toEqual(['root', 'user', 'assistant', 'user', 'assistant']);
    expect(after[3]!.id).toBe(res.body.node.id);
    const parent = await call<{ childIds: string[] }>(
      api,
      'GET',
      `/api/conversations/${c.id}/nodes/${original.parentId}`,
      { token },
    );
    expect(parent.body.childIds).toEqual([original.id, res.body.node.id]);
  });

  it('edits only user messages, and not with a stale expectedHead', async () => {
    const c = await createConversation(api, token);
    await say(api, token, c.id, 'hello');
    const nodes = await path(api, token, c.id);
    const assistant = await call(api, 'POST', `/api/conversations/${c.id}/nodes/${nodes[2]!.id}/edit`, {
      token,
      body: { text: 'x' },
    });
    expect(assistant).toEqual({ status: 400, body: errorOf('invalid_request') });
    const stale = await call(api, 'POST', `/api/conversations/${c.id}/nodes/${nodes[1]!.id}/edit`, {
      token,
      body: { text: 'x', expectedHead: c.head },
    });
    expect(stale.status).toBe(409);
    const unknown = await call(api, 'POST', `/api/conversations/${c.id}/nodes/${'b'.repeat(64)}/edit`, {
      token,
      body: { text: 'x' },
    });
    expect(unknown.status).toBe(404);
    expect((await path(api, token, c.id)).map((n) => n.id)).toEqual(nodes.map((n) => n.id));
  });

  it('edits while a tool waits on its question: the turn is cancelled first, then HEAD moves', async () => {
    const c = await createConversation(api, token);
    await say(api, token, c.id, 'I am done', 'confirm');
    const user = (await path(api, token, c.id))[1]!;
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/nodes/${user.id}/edit`, {
      token,
      body: { text: 'hello instead' },
    });
    expect(res.status).toBe(201);
    await waitingOn(api, token, c.id);
    const actions = (await reflog(c.id)).map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(['append', 'edit', 'cancel']);
    expect(kinds(await path(api, token, c.id))).toEqual(['root', 'user', 'assistant']);
  });

  it('recovers a reflog entry: HEAD goes back to where it put it (reflog `recover`)', async () => {
    const c = await createConversation(api, token);
    await say(api, token, c.id, 'one');
    const tip = (await conversation(api, token, c.id)).head;
    await call(api, 'POST', `/api/conversations/${c.id}/rewind`, { token, body: { to: 'HEAD~2' } });
    const entry = (await reflog(c.id)).find((e) => e.newHead === tip)!;
    const res = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/recover`, {
      token,
      body: { reflogId: entry.id },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      head: tip,
      reflog: expect.objectContaining({ action: 'recover', newHead: tip }),
    });
    expect((await waitingOn(api, token, c.id)).head).toBe(tip);
    const unknown = await call(api, 'POST', `/api/conversations/${c.id}/recover`, {
      token,
      body: { reflogId: '999999999' },
    });
    expect(unknown).toEqual({ status: 404, body: errorOf('not_found') });
    expect((await call(api, 'POST', `/api/conversations/${c.id}/recover`, { token, body: {} })).status).toBe(
      400,
    );
  });

  it('cancels when nothing runs without moving HEAD', async () => {
    const c = await createConversation(api, token);
    const res = await call<{ head: string }>(api, 'POST', `/api/conversations/${c.id}/cancel`, { token });
    expect(res).toEqual({ status: 200, body: { head: c.head } });
    expect((await reflog(c.id)).map((e) => e.action)).toEqual(['create']);
  });
});
