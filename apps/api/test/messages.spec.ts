import { MAX_MESSAGE_LENGTH, type NodeAndHead } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, PHOTO, settled } from './support/flows';
import { call, errorOf, register, startApi, type TestApi } from './support/test-api';
import { connect, request } from './support/test-socket';

describe('what a message may be, the same over HTTP and the socket', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase('api_messages');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'sender'));
  }, 30_000);
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const post = (id: string, body: unknown) =>
    call<NodeAndHead>(api, 'POST', `/api/conversations/${id}/messages`, { token, body });

  it('a photo alone is a message', async () => {
    const c = await createConversation(api, token);
    const sent = await post(c.id, { text: '', photos: [PHOTO] });
    expect(sent.status).toBe(201);
    // The photo as stored: a blob, checked and written again without metadata (photo-intake.spec.ts).
    expect(sent.body.node).toMatchObject({
      kind: 'user',
      payload: {
        text: '',
        photos: [
          { sha256: expect.stringMatching(/^[0-9a-f]{64}$/), mediaType: 'image/png', width: 1, height: 1 },
        ],
      },
    });
    await settled(api, token, c.id);
  });

  it('refuses a message with neither words nor a photo, or longer than the limit, and stores nothing', async () => {
    const c = await createConversation(api, token);
    const empty = await post(c.id, { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject(errorOf('invalid_request'));
    const long = await post(c.id, { text: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) });
    expect(long.status).toBe(400);
    expect(JSON.stringify(long.body)).toContain('text');

    const socket = await connect(api, token);
    try {
      const refused = await request(socket, 'message:send', {
        conversationId: c.id,
        text: 'x'.repeat(MAX_MESSAGE_LENGTH + 1),
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    } finally {
      socket.close();
    }
    const after = await call<{ head: string }>(api, 'GET', `/api/conversations/${c.id}`, { token });
    expect(after.body.head).toBe(c.head);
  });
});
