import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answerAll, createConversation, firstAnswer, OPENING, path, PHOTO } from './support/flows';
import { register, startApi, type TestApi } from './support/test-api';
import { connect, record, request, type ClientSocket } from './support/test-socket';

describe('the Socket.IO gateway (PROTOCOL.md, WebSocket)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  const sockets: ClientSocket[] = [];

  const open = async (as = token) => {
    const socket = await connect(api, as);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    db = await createTestDatabase('api_realtime');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'socket'));
  }, 30_000);
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('refuses a handshake without a token, or with a bad one', async () => {
    await expect(connect(api, undefined)).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
    await expect(connect(api, `${token}x`)).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
    await expect(connect(api, 'garbage')).rejects.toMatchObject({ data: { code: 'unauthenticated' } });
  });

  it('joins: acks with the conversation, then sends the pending elicit again', async () => {
    const c = await createConversation(api, token);
    const socket = await open();
    const elicits = record(socket, 'elicit');
    const ack = await request(socket, 'conversation:join', { conversationId: c.id });
    expect(ack).toEqual({ ok: true, conversation: c });
    expect(await elicits.next()).toEqual({
      conversationId: c.id,
      nodeId: c.head,
      ...c.pendingElicit,
    });
  });

  it('sends a message: acked with its node; node, head, status and the next elicit reach the room', async () => {
    const c = await createConversation(api, token);
    const socket = await open();
    const watcher = await open();
    await request(watcher, 'conversation:join', { conversationId: c.id });
    const nodes = record(watcher, 'node');
    const heads = record(watcher, 'head');
    const statuses = record(watcher, 'status');
    const elicits = record(watcher, 'elicit');
    await request(socket, 'conversation:join', { conversationId: c.id });
    const ack = await request(socket, 'message:send', { conversationId: c.id, text: 'hello' });
    if (!ack.ok) throw new Error(ack.error.message);
    expect(ack.node).toMatchObject({ kind: 'user', payload: { text: 'hello' }, parentId: c.head });
    await statuses.next((e) => e.status === 'waiting');
    const nodesNow = await path(api, token, c.id);
    const tip = nodesNow.at(-1)!;
    expect(await elicits.next((e) => e.nodeId === tip.id)).toMatchObject({ conversationId: c.id });
    expect(nodes.seen.map((e) => e.node)).toEqual(nodesNow.slice(1));
    expect(heads.seen.at(-1)).toMatchObject({ head: tip.id, reflog: { action: 'append', newHead: tip.id } });
    expect(heads.seen[0]).toMatchObject({ head: ack.node.id, reflog: { oldHead: c.head } });
    expect(statuses.seen[0]!.status).toBe('running');
  });

  it("answers a tool's elicit: a bad content is refused in the ack, a repeat returns the same node", async () => {
    const c = await createConversation(api, token);
    const socket = await open();
    const elicits = record(socket, 'elicit');
    await request(socket, 'conversation:join', { conversationId: c.id });
    await request(socket, 'message:send', { conversationId: c.id, text: OPENING, photos: [PHOTO] });
    const asked = await elicits.next((e) => e.type !== 'chat');
    const bad = await request(socket, 'elicit:response', {
      conversationId: c.id,
      elicitId: asked.elicitId,
      action: 'accept',
      content: 'not what was asked',
    });
    expect(bad).toEqual({ ok: false, error: expect.objectContaining({ code: 'invalid_request' }) });
    const answer = { conversationId: c.id, elicitId: asked.elicitId, ...firstAnswer(asked) };
    const first = await request(socket, 'elicit:response', answer);
    const again = await request(socket, 'elicit:response', answer);
    if (!first.ok || !again.ok) throw new Error('the answer was refused');
    expect(first.node).toMatchObject({ kind: 'response', parentId: asked.nodeId });
    expect(again.node).toEqual(first.node);
    await answerAll(api, token, c.id);
  });

  it('validates every payload, naming the bad fields', async () => {
    const socket = await open();
    const ack = await request(socket, 'message:send', { conversationId: 7 });
    expect(ack).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: expect.any(String),
        details: expect.arrayContaining([
          expect.objectContaining({ field: 'conversationId' }),
          expect.objectContaining({ field: 'text' }),
        ]),
      },
    });
    expect(await request(socket, 'conversation:join', 'nonsense')).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });

  it('cancels, rewinds, edits and recovers over the socket, with their acks and events', async () => {
    const c = await createConversation(api, token);
    const socket = await open();
    const elicits = record(socket, 'elicit');
    const withdrawn = record(socket, 'elicit:withdrawn');
    const heads = record(socket, 'head');
    await request(socket, 'conversation:join', { conversationId: c.id });
    await request(socket, 'message:send', { conversationId: c.id, text: OPENING, photos: [PHOTO] });
    const asked = await elicits.next((e) => e.type !== 'chat');

    const cancelled = await request(socket, 'conversation:cancel', { conversationId: c.id });
    if (!cancelled.ok) throw new Error(cancelled.error.message);
    expect(await withdrawn.next((e) => e.elicitId === asked.elicitId)).toMatchObject({
      conversationId: c.id,
    });
    const cancelMove = await heads.next((e) => e.head === cancelled.head);
    expect(cancelMove.reflog.action).toBe('cancel');

    const rewound = await request(socket, 'conversation:rewind', {
      conversationId: c.id,
      to: c.head,
      expectedHead: cancelled.head,
    });
    if (!rewound.ok) throw new Error(rewound.error.message);
    expect(rewound.reflog).toMatchObject({ action: 'rewind', oldHead: cancelled.head, newHead: c.head });
    expect(await elicits.next((e) => e.elicitId === `chat-${c.head}` && e !== elicits.seen[0])).toMatchObject(
      {
        type: 'chat',
      },
    );

    const stale = await request(socket, 'conversation:rewind', {
      conversationId: c.id,
      to: 'HEAD',
      expectedHead: cancelled.head,
    });
    expect(stale).toEqual({
      ok: false,
      error: { code: 'conflict', message: expect.any(String), details: { head: c.head } },
    });

    const user = (await path(api, token, c.id, cancelled.head)).find((n) => n.kind === 'user')!;
    const edited = await request(socket, 'message:edit', {
      conversationId: c.id,
      nodeId: user.id,
      text: 'hello',
    });
    if (!edited.ok) throw new Error(edited.error.message);
    expect(edited.node).toMatchObject({ kind: 'user', parentId: user.parentId, payload: { text: 'hello' } });
    expect(edited.head).toBe(edited.node.id);
    await answerAll(api, token, c.id);

    const recovered = await request(socket, 'conversation:recover', {
      conversationId: c.id,
      reflogId: cancelMove.reflog.id,
    });
    if (!recovered.ok) throw new Error(recovered.error.message);
    expect(recovered).toMatchObject({ head: cancelled.head, reflog: { action: 'recover' } });
  });

  it('passes progress to a pending elicit, and says not_found for one that is not', async () => {
    const c = await createConversation(api, token);
    const socket = await open();
    const elicits = record(socket, 'elicit');
    await request(socket, 'conversation:join', { conversationId: c.id });
    await request(socket, 'message:send', { conversationId: c.id, text: OPENING, photos: [PHOTO] });
    const asked = await elicits.next((e) => e.type !== 'chat');
    expect(
      await request(socket, 'elicit:progress', {
        conversationId: c.id,
        elicitId: asked.elicitId,
        payload: { typing: true },
      }),
    ).toEqual({ ok: true });
    expect(
      await request(socket, 'elicit:progress', { conversationId: c.id, elicitId: 'nope', payload: {} }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('leaves: no more events from the room', async () => {
    const c = await createConversation(api, token);
    const socket = await open();
    const other = await open();
    await request(socket, 'conversation:join', { conversationId: c.id });
    await request(other, 'conversation:join', { conversationId: c.id });
    expect(await request(socket, 'conversation:leave', { conversationId: c.id })).toEqual({ ok: true });
    const seen = record(socket, 'node');
    const otherSeen = record(other, 'status');
    await request(other, 'message:send', { conversationId: c.id, text: 'hi' });
    await otherSeen.next((e) => e.status === 'waiting');
    // a round trip on the leaver's socket: anything the room sent it would have arrived before
    expect(await request(socket, 'conversation:leave', { conversationId: c.id })).toEqual({ ok: true });
    expect(seen.seen).toEqual([]);
  });
});
