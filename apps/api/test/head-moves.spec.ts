import type { HeadMove, NodeAndHead, ReflogPage, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { TreeStore } from '@sweatpants/tree-store';
import { answerAll, ask, conversation, createConversation, path, turn } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';

/** A 1×1 PNG, as small a photo as the intake takes. */
const ONE_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('moves of HEAD from outside the runner: rewind, edit, recover, cancel', () => {
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
    (await call<ReflogPage>(api, 'GET', `/api/conversations/${id}/reflog?limit=500`, { token })).body.entries;

  it('rewinds to a ref: HEAD moves (reflog `rewind`), the old branch stays, the chat prompt follows HEAD', async () => {
    const c = await createConversation(api, token);
    const first = await turn(api, token, c.id, 'one');
    const kept = await path(api, token, c.id);
    const second = await turn(api, token, c.id, 'two');
    const res = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: first.head.slice(0, 12), expectedHead: second.head },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      head: first.head,
      reflog: expect.objectContaining({
        action: 'rewind',
        oldHead: second.head,
        newHead: first.head,
        index: 0,
      }),
    });
    expect(await path(api, token, c.id)).toEqual(kept);
    const after = await answerAll(api, token, c.id);
    expect(after.pendingElicit?.elicitId).toBe(`chat-${first.head}`);
    // the discarded branch is still there to read
    const old = await call(api, 'GET', `/api/conversations/${c.id}/nodes/${second.head}`, { token });
    expect(old.status).toBe(200);
  });

  it('rewinds by HEAD~n', async () => {
    const c = await createConversation(api, token);
    await turn(api, token, c.id, 'one');
    const before = await path(api, token, c.id);
    const res = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: `HEAD~${before.length - 1}` },
    });
    expect(res.body.head).toBe(before[0]!.id);
  });

  it('refuses a rewind with a stale expectedHead (409 with the current HEAD), or to a ref that does not resolve', async () => {
    const c = await createConversation(api, token);
    const { head } = await turn(api, token, c.id, 'one');
    const stale = await call(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: 'HEAD~1', expectedHead: c.head },
    });
    expect(stale).toEqual({
      status: 409,
      body: { error: expect.objectContaining({ code: 'conflict', details: { head } }) },
    });
    const far = await call(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: 'HEAD~999' },
    });
    expect(far.status).toBe(404);
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
    await turn(api, token, c.id, 'hello');
    const { head } = await turn(api, token, c.id, 'and the shelf');
    const original = (await path(api, token, c.id)).findLast(
      (n) => n.kind === 'user' && n.payload['text'] === 'and the shelf',
    )!;
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/nodes/${original.id}/edit`, {
      token,
      body: { text: 'and the wardrobe', expectedHead: head },
    });
    expect(res.status).toBe(201);
    expect(res.body.node).toMatchObject({
      kind: 'user',
      parentId: original.parentId,
      depth: original.depth,
      payload: { text: 'and the wardrobe' },
    });
    expect(res.body.node.id).not.toBe(original.id);
    expect(res.body.head).toBe(res.body.node.id);
    await answerAll(api, token, c.id);
    const entries = await reflog(c.id);
    const edit = entries.findIndex((e) => e.action === 'edit');
    expect(entries[edit]).toMatchObject({ oldHead: head, newHead: res.body.node.id });
    // the agent ran from the edited message: HEAD is past it, on its branch
    const after = await path(api, token, c.id);
    expect(after[original.depth]).toEqual(res.body.node);
    expect(after.length).toBeGreaterThan(original.depth + 1);
    const parent = await call<{ childIds: string[] }>(
      api,
      'GET',
      `/api/conversations/${c.id}/nodes/${original.parentId}`,
      {
        token,
      },
    );
    expect(parent.body.childIds).toEqual([original.id, res.body.node.id]);
  });

  it('edits the words of a message sent with a photo: the photo stays with the edited message', async () => {
    const c = await createConversation(api, token);
    const sent = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text: 'my desk', photos: [{ mediaType: 'image/png', data: ONE_PIXEL_PNG }] },
    });
    expect(sent.status).toBe(201);
    const photos = (sent.body.node as TreeNode<'user'>).payload.photos;
    expect(photos).toHaveLength(1);
    await answerAll(api, token, c.id);
    const res = await call<NodeAndHead>(
      api,
      'POST',
      `/api/conversations/${c.id}/nodes/${sent.body.node.id}/edit`,
      {
        token,
        body: { text: 'my kitchen table' },
      },
    );
    expect(res.status).toBe(201);
    expect(res.body.node.payload).toEqual({ text: 'my kitchen table', photos });
  });

  it('edits only user messages, and not with a stale expectedHead', async () => {
    const c = await createConversation(api, token);
    await turn(api, token, c.id, 'hello');
    const nodes = await path(api, token, c.id);
    const assistant = nodes.find((n) => n.kind === 'assistant')!;
    const user = nodes.find((n) => n.kind === 'user')!;
    const edit = (nodeId: string, body: object) =>
      call(api, 'POST', `/api/conversations/${c.id}/nodes/${nodeId}/edit`, { token, body });
    expect(await edit(assistant.id, { text: 'x' })).toEqual({
      status: 400,
      body: errorOf('invalid_request'),
    });
    expect((await edit(user.id, { text: 'x', expectedHead: c.head })).status).toBe(409);
    expect((await edit('b'.repeat(64), { text: 'x' })).status).toBe(404);
    expect((await edit(user.id, { text: '' })).status).toBe(400);
    expect(await path(api, token, c.id)).toEqual(nodes);
  });

  it('edits while a tool waits on its question: HEAD moves and the left branch is not stopped', async () => {
    const c = await createConversation(api, token);
    await ask(api, token, c.id);
    const user = (await path(api, token, c.id)).find((n) => n.kind === 'user')!;
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/nodes/${user.id}/edit`, {
      token,
      body: { text: 'hello instead' },
    });
    expect(res.status).toBe(201);
    await answerAll(api, token, c.id);
    // Leaving a branch is not a Stop: no `cancel` is written, so its question is still pending
    // there when the person comes back (walking-away.spec.ts walks that).
    const actions = (await reflog(c.id)).map((e) => e.action);
    expect(actions).not.toContain('cancel');
    expect(actions).toContain('edit');
  });

  it('recovers a reflog entry: HEAD goes back to where it put it (reflog `recover`)', async () => {
    const c = await createConversation(api, token);
    const { head: tip } = await turn(api, token, c.id, 'one');
    await call(api, 'POST', `/api/conversations/${c.id}/rewind`, { token, body: { to: c.head } });
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
    expect((await answerAll(api, token, c.id)).head).toBe(tip);
    const unknown = await call(api, 'POST', `/api/conversations/${c.id}/recover`, {
      token,
      body: { reflogId: '999999999' },
    });
    expect(unknown).toEqual({ status: 404, body: errorOf('not_found') });
    expect((await call(api, 'POST', `/api/conversations/${c.id}/recover`, { token, body: {} })).status).toBe(
      400,
    );
  });

  it('moves from where HEAD is when another writer moved it unheard, unless the caller saw another HEAD', async () => {
    const c = await createConversation(api, token);
    const first = await turn(api, token, c.id, 'one');
    const second = await turn(api, token, c.id, 'two');
    // Another writer moves HEAD behind the actor's back, as a compaction landing on another
    // process does before the news arrives: the actor still knows `second`.
    const behindItsBack = (to: string) =>
      api.app.get(TreeStore).move({ conversationId: c.id, to, action: 'rewind', actorId: 'elsewhere' });
    expect((await behindItsBack(first.head)).ok).toBe(true);

    const rewound = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: c.head },
    });
    expect(rewound.status).toBe(200);
    expect(rewound.body.reflog).toMatchObject({ oldHead: first.head, newHead: c.head });

    // The caller saw the HEAD the other writer left: the move is theirs to make.
    expect((await behindItsBack(second.head)).ok).toBe(true);
    const seen = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: first.head, expectedHead: second.head },
    });
    expect(seen.status).toBe(200);
    expect(seen.body.reflog).toMatchObject({ oldHead: second.head, newHead: first.head });

    // The caller saw another HEAD: a 409 naming where it is, and nothing moves.
    expect((await behindItsBack(second.head)).ok).toBe(true);
    const stale = await call(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: c.head, expectedHead: first.head },
    });
    expect(stale).toEqual({
      status: 409,
      body: { error: expect.objectContaining({ code: 'conflict', details: { head: second.head } }) },
    });
    const actions = (await reflog(c.id)).map((e) => [
      e.actorId === 'elsewhere' ? 'elsewhere' : 'user',
      e.action,
    ]);
    expect(actions.slice(0, 5)).toEqual([
      ['elsewhere', 'rewind'],
      ['user', 'rewind'],
      ['elsewhere', 'rewind'],
      ['user', 'rewind'],
      ['elsewhere', 'rewind'],
    ]);
  });

  it('cancels when nothing runs without moving HEAD', async () => {
    const c = await createConversation(api, token);
    const res = await call<{ head: string }>(api, 'POST', `/api/conversations/${c.id}/cancel`, { token });
    expect(res).toEqual({ status: 200, body: { head: c.head } });
    expect((await reflog(c.id)).map((e) => e.action)).toEqual(['create']);
  });
});
