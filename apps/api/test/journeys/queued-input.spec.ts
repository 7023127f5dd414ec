import type { Conversation, NodeAndHead, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answerAll, conversation, createConversation, path, until } from '../support/flows';
import { call, errorOf, register, startApi, type TestApi } from '../support/test-api';
import { connect, record, request, type ClientSocket } from '../support/test-socket';

/** The person's words on a path, in order (a mode's hand-over, also a `user` node, is the agent's). */
const wordsOf = (nodes: readonly TreeNode[]) =>
  nodes
    .filter((n): n is TreeNode<'user'> => n.kind === 'user' && !n.authorId.startsWith('agent:'))
    .map((n) => n.payload.text);

/** How long the offline model thinks before each reply: long enough to type into, as a real model's. */
const PACE = { OFFLINE_MODEL_PACE_MS: '300' };

/**
 * A person who types while the coach is working (seed 004: "requests queue by default"): what they
 * send is accepted at once and kept, taken by the coach next, in the order sent; what they withdraw
 * before it is taken is never answered; and nothing they said is lost, a restart included.
 */
describe('messages typed while the coach is working', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let socket: ClientSocket;
  let c: Conversation;

  beforeAll(async () => {
    db = await createTestDatabase('api_queued_input');
    api = await startApi({ DATABASE_URL: db.url, ...PACE });
    ({ token } = await register(api, 'typist'));
  });
  beforeEach(async () => {
    c = await createConversation(api, token, { agent: 'tidying' });
    socket = await connect(api, token);
    const joined = await request(socket, 'conversation:join', { conversationId: c.id });
    if (!joined.ok) throw new Error(joined.error.message);
  });
  afterEach(() => socket?.close());
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const send = (text: string) =>
    call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text } });
  const withdraw = (nodeId: string) =>
    call(api, 'DELETE', `/api/conversations/${c.id}/queue/${nodeId}`, { token });
  const said = async () => wordsOf(await path(api, token, c.id));

  it('queues a message sent while the coach works, then takes it next, after the reply it waited on', async () => {
    const first = await send('The shelf by the window is a mess');
    expect(first.status).toBe(201);
    expect((await conversation(api, token, c.id)).status).toBe('running');

    const second = await send('Mostly books and cables');
    expect(second.status).toBe(201);
    expect(second.body.node).toMatchObject({
      kind: 'user',
      payload: { text: 'Mostly books and cables', queued: true },
    });
    // HEAD did not move for it: it is not in the tree until the coach takes it.
    expect(second.body.head).toBe(first.body.head);
    const seen = await conversation(api, token, c.id);
    expect(seen.queued?.map((m) => m.text)).toEqual(['Mostly books and cables']);

    await answerAll(api, token, c.id);
    await until(
      () => conversation(api, token, c.id),
      (v) => v.status === 'waiting' && (v.queued ?? []).length === 0 && v.pendingElicit?.type === 'chat',
    );
    expect(await said()).toEqual(['The shelf by the window is a mess', 'Mostly books and cables']);
    const nodes = await path(api, token, c.id);
    const taken = nodes.findIndex((n) => n.kind === 'user' && n.payload.queuedId === second.body.node.id);
    expect(taken).toBeGreaterThan(0);
    // The coach had replied to the first message before it took the second, and answered the second.
    expect(nodes.slice(0, taken).some((n) => n.kind === 'assistant')).toBe(true);
    expect(nodes.slice(taken).some((n) => n.kind === 'assistant')).toBe(true);
    // Taken, it can no longer be withdrawn.
    expect(await withdraw(second.body.node.id)).toEqual({ status: 409, body: errorOf('conflict') });
  });

  it('never answers a message withdrawn before it was taken, and keeps the order of the rest', async () => {
    await send('The shelf by the window is a mess');
    const keep = await send('Books first, please');
    const drop = await send('Actually, forget the cables');
    const after = await send('And the lamp');

    expect(await withdraw(drop.body.node.id)).toEqual({ status: 204, body: undefined });
    expect(await withdraw(drop.body.node.id)).toEqual({ status: 404, body: errorOf('not_found') });
    expect((await conversation(api, token, c.id)).queued?.map((m) => m.text)).toEqual([
      'Books first, please',
      'And the lamp',
    ]);

    for (let v = await conversation(api, token, c.id); ; v = await conversation(api, token, c.id)) {
      if (v.status === 'waiting' && v.pendingElicit?.type === 'chat' && (v.queued ?? []).length === 0) break;
      await answerAll(api, token, c.id);
    }
    expect(await said()).toEqual([
      'The shelf by the window is a mess',
      'Books first, please',
      'And the lamp',
    ]);
    const nodes = await path(api, token, c.id);
    expect(nodes.some((n) => JSON.stringify(n.payload).includes('forget the cables'))).toBe(false);
    expect(keep.body.node.id).not.toBe(after.body.node.id);
  });

  it('says every change of the queue to the conversation’s sockets, and withdraws over the socket', async () => {
    const queue = record(socket, 'queue');
    const first = await request(socket, 'message:send', { conversationId: c.id, text: 'The desk' });
    if (!first.ok) throw new Error(first.error.message);
    const queued = await request(socket, 'message:send', { conversationId: c.id, text: 'and the chair' });
    if (!queued.ok) throw new Error(queued.error.message);
    expect(queued.node.payload).toMatchObject({ text: 'and the chair', queued: true });
    expect(await queue.next((e) => e.items.length === 1)).toMatchObject({
      conversationId: c.id,
      items: [{ id: queued.node.id, text: 'and the chair' }],
    });

    const withdrawn = await request(socket, 'message:withdraw', {
      conversationId: c.id,
      nodeId: queued.node.id,
    });
    expect(withdrawn).toEqual({ ok: true });
    expect(await queue.next((e) => e.items.length === 0)).toEqual({ conversationId: c.id, items: [] });
    const again = await request(socket, 'message:withdraw', { conversationId: c.id, nodeId: queued.node.id });
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('takes a queued message after a Stop, which interrupts only the work under way', async () => {
    await send('The shelf by the window is a mess');
    await send('Start with the books');
    const stopped = await call(api, 'POST', `/api/conversations/${c.id}/cancel`, { token });
    expect(stopped.status).toBe(200);
    await until(
      () => said(),
      (words) => words.includes('Start with the books'),
    );
    const nodes = await path(api, token, c.id);
    const cancel = nodes.findIndex((n) => n.kind === 'cancel');
    const taken = nodes.findIndex((n) => n.kind === 'user' && n.payload.text === 'Start with the books');
    expect(cancel).toBeGreaterThan(0);
    expect(taken).toBeGreaterThan(cancel);
  });
});

describe('a queued message and a restart', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('api_queued_restart');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('is kept by the database: the api started next takes it', async () => {
    const first = await startApi({ DATABASE_URL: db.url, ...PACE });
    const { token } = await register(first, 'restarter');
    const c = await createConversation(first, token);
    const sent = (text: string) =>
      call<NodeAndHead>(first, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text } });
    await sent('The shelf by the window is a mess');
    const queued = await sent('Do not forget the cables');
    expect(queued.body.node.payload).toMatchObject({ queued: true });
    await first.close(); // mid-turn, with the message still queued

    const next = await startApi({ DATABASE_URL: db.url, ...PACE });
    try {
      for (let v = await conversation(next, token, c.id); ; v = await conversation(next, token, c.id)) {
        if (v.status === 'waiting' && v.pendingElicit?.type === 'chat' && (v.queued ?? []).length === 0)
          break;
        await answerAll(next, token, c.id);
      }
      expect(wordsOf(await path(next, token, c.id))).toEqual([
        'The shelf by the window is a mess',
        'Do not forget the cables',
      ]);
    } finally {
      await next.close();
    }
  });
});
