import type { Conversation, ConversationList } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answer, conversation, createConversation, PHOTO, say, settled } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';
import { connect, record, request, type ClientSocket } from './support/test-socket';

describe('titles: rename, and the title a first message gives', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('api_conversation_titles');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'titler'));
  }, 30_000);
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await api?.close();
    await db?.drop();
  });

  const rename = (id: string, body: unknown, as = token) =>
    call<Conversation>(api, 'PATCH', `/api/conversations/${id}`, { token: as, body });
  const listed = async (id: string, as = token) =>
    (await call<ConversationList>(api, 'GET', '/api/conversations', { token: as })).body.items.find(
      (c) => c.id === id,
    );
  const untitled = () => createConversation(api, token, { agent: 'tidying' });
  const socketOf = async (as: string) => {
    const socket = await connect(api, as);
    sockets.push(socket);
    return socket;
  };

  describe('PATCH /api/conversations/:id', () => {
    it('renames: the Conversation comes back with the title, and the list shows it', async () => {
      const c = await createConversation(api, token, { agent: 'concierge', title: 'Inbox' });
      const res = await rename(c.id, { title: '  Inbox, sorted  ' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ...c, title: 'Inbox, sorted', updatedAt: c.updatedAt });
      expect((await conversation(api, token, c.id)).title).toBe('Inbox, sorted');
      expect((await listed(c.id))?.title).toBe('Inbox, sorted');
    });

    it('does not move the conversation in the list', async () => {
      const older = await untitled();
      await new Promise((resolve) => setTimeout(resolve, 3));
      const newer = await untitled();
      const order = async () =>
        (await call<ConversationList>(api, 'GET', '/api/conversations', { token })).body.items
          .map((c) => c.id)
          .filter((id) => id === older.id || id === newer.id);
      expect(await order()).toEqual([newer.id, older.id]);
      expect((await rename(older.id, { title: 'Renamed' })).status).toBe(200);
      expect(await order()).toEqual([newer.id, older.id]);
    });

    it('refuses a title that is empty, blank, too long or missing with a 400 naming `title`', async () => {
      const c = await createConversation(api, token, { agent: 'tidying', title: 'Kept' });
      for (const body of [{ title: '' }, { title: '   ' }, { title: 'x'.repeat(201) }, {}, { title: 7 }]) {
        const res = await call<{ error: { details: { field: string }[] } }>(
          api,
          'PATCH',
          `/api/conversations/${c.id}`,
          { token, body },
        );
        expect([body, res.status, res.body]).toEqual([body, 400, errorOf('invalid_request')]);
        expect(res.body.error.details.map((d) => d.field)).toEqual(['title']);
      }
      expect((await conversation(api, token, c.id)).title).toBe('Kept');
    });

    it("answers 404 for someone else's conversation, an archived one or an unknown id, and changes nothing", async () => {
      const c = await createConversation(api, token, { agent: 'tidying', title: 'Mine' });
      const stranger = await register(api, 'stranger');
      expect(await rename(c.id, { title: 'Theirs now' }, stranger.token)).toEqual({
        status: 404,
        body: errorOf('not_found'),
      });
      expect((await conversation(api, token, c.id)).title).toBe('Mine');
      expect((await rename('00000000-0000-4000-8000-000000000000', { title: 'x' })).status).toBe(404);
      expect((await rename('nonsense', { title: 'x' })).status).toBe(404);
      await call(api, 'DELETE', `/api/conversations/${c.id}`, { token });
      expect((await rename(c.id, { title: 'x' })).status).toBe(404);
    });

    it('tells the sockets joined to the conversation', async () => {
      const c = await untitled();
      const socket = await socketOf(token);
      const titles = record(socket, 'title');
      expect(await request(socket, 'conversation:join', { conversationId: c.id })).toMatchObject({
        ok: true,
      });
      await rename(c.id, { title: 'Heard' });
      expect(await titles.next()).toEqual({ conversationId: c.id, title: 'Heard' });
    });
  });

  describe('from the first message', () => {
    it('takes the first line of the first message sent over HTTP, and keeps it after later messages', async () => {
      const c = await untitled();
      expect(c.title).toBe('');
      const first = 'Help me sort the garage   before the weekend\nIt has boxes everywhere';
      expect(
        (await call(api, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text: first } }))
          .status,
      ).toBe(201);
      expect((await conversation(api, token, c.id)).title).toBe('Help me sort the garage before the weekend');
      expect((await listed(c.id))?.title).toBe('Help me sort the garage before the weekend');
      await settled(api, token, c.id);
      await say(api, token, c.id, 'and the shed');
      expect((await conversation(api, token, c.id)).title).toBe('Help me sort the garage before the weekend');
    });

    it('cuts a long first line at a word boundary with an ellipsis', async () => {
      const c = await createConversation(api, token, { agent: 'concierge' });
      await say(
        api,
        token,
        c.id,
        'Please go through everything that arrived while I was away and tell me what matters',
      );
      const { title } = await conversation(api, token, c.id);
      expect(title).toBe('Please go through everything that arrived while I was away…');
      expect(Array.from(title).length).toBeLessThanOrEqual(60);
    });

    it("takes it from the answer to the agent's chat prompt", async () => {
      const c = await untitled();
      const prompt = (await settled(api, token, c.id)).pendingElicit!;
      expect(prompt.type).toBe('chat');
      const res = await answer(api, token, c.id, prompt, {
        action: 'accept',
        content: { text: 'The bookshelf' },
      });
      expect(res.status).toBe(200);
      expect((await conversation(api, token, c.id)).title).toBe('The bookshelf');
    });

    it('takes it from message:send over the socket', async () => {
      const c = await untitled();
      const socket = await socketOf(token);
      const titles = record(socket, 'title');
      await request(socket, 'conversation:join', { conversationId: c.id });
      const ack = await request(socket, 'message:send', { conversationId: c.id, text: 'Kitchen drawers' });
      expect(ack).toMatchObject({ ok: true });
      expect((await conversation(api, token, c.id)).title).toBe('Kitchen drawers');
      expect(await titles.next()).toEqual({ conversationId: c.id, title: 'Kitchen drawers' });
    });

    it('waits past a photo-only message for the first words, here an off-script answer', async () => {
      const c = await untitled();
      const asked = await say(api, token, c.id, '', [PHOTO]);
      expect(asked.title).toBe('');
      expect(asked.pendingElicit?.type).not.toBe('chat');
      const res = await call<{ node: { kind: string } }>(api, 'POST', `/api/conversations/${c.id}/messages`, {
        token,
        body: { text: 'It is my hallway cupboard' },
      });
      expect(res.status).toBe(201);
      expect(res.body.node.kind).toBe('response');
      expect((await conversation(api, token, c.id)).title).toBe('It is my hallway cupboard');
    });

    it('never replaces a title the conversation was created with or renamed to', async () => {
      const named = await createConversation(api, token, { agent: 'tidying', title: 'Named' });
      await say(api, token, named.id, 'Some other words');
      expect((await conversation(api, token, named.id)).title).toBe('Named');

      const renamed = await untitled();
      expect((await rename(renamed.id, { title: 'Chosen' })).status).toBe(200);
      await say(api, token, renamed.id, 'First words');
      expect((await conversation(api, token, renamed.id)).title).toBe('Chosen');
    });
  });
});
