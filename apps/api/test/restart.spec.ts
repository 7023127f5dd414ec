import type { ElicitEvent } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answerAll, createConversation, firstAnswer, OPENING, path, PHOTO } from './support/flows';
import { register, startApi, type TestApi } from './support/test-api';
import { connect, record, request } from './support/test-socket';

describe('a restart while an elicit is pending (single process)', () => {
  let db: TestDatabase;
  let api: TestApi | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('api_restart');
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  it('sends the same elicit again on rejoin; the answer goes on with nothing lost or doubled', async () => {
    api = await startApi({ DATABASE_URL: db.url });
    const { token } = await register(api, 'restarter');
    const c = await createConversation(api, token);
    const first = await connect(api, token);
    const firstElicits = record(first, 'elicit');
    await request(first, 'conversation:join', { conversationId: c.id });
    await request(first, 'message:send', { conversationId: c.id, text: OPENING, photos: [PHOTO] });
    const asked = await firstElicits.next((e) => e.type !== 'chat');
    const before = await path(api, token, c.id);
    first.close();
    await api.close();

    // Same database, same secret: the token still holds, the tree is all there is.
    api = await startApi({ DATABASE_URL: db.url });
    const second = await connect(api, token);
    try {
      const elicits = record(second, 'elicit');
      const joined = await request(second, 'conversation:join', { conversationId: c.id });
      expect(joined).toMatchObject({ ok: true, conversation: { id: c.id, head: asked.nodeId } });
      const again: ElicitEvent = await elicits.next((e) => e.elicitId === asked.elicitId);
      expect(again).toEqual(asked);
      expect(await path(api, token, c.id)).toEqual(before);

      const answered = await request(second, 'elicit:response', {
        conversationId: c.id,
        elicitId: asked.elicitId,
        ...firstAnswer(asked),
      });
      if (!answered.ok) throw new Error(answered.error.message);
      expect(answered.node).toMatchObject({ kind: 'response', parentId: asked.nodeId });
      await answerAll(api, token, c.id);

      const after = await path(api, token, c.id);
      expect(after.slice(0, before.length)).toEqual(before);
      const ids = after.map((n) => n.id);
      expect(new Set(ids).size).toBe(ids.length);
      const elicitNodes = after.filter(
        (n) => n.kind === 'elicit' && n.payload['elicitId'] === asked.elicitId,
      );
      const responses = after.filter(
        (n) => n.kind === 'response' && n.payload['elicitId'] === asked.elicitId,
      );
      expect([elicitNodes.length, responses.length]).toEqual([1, 1]);
      // nothing the first process recorded was recorded again: no second user message, no repeated model reply
      expect(after.filter((n) => n.kind === 'user' && n.payload['text'] === OPENING)).toHaveLength(1);
      expect(after.slice(before.length).some((n) => n.kind === 'assistant')).toBe(true);
    } finally {
      second.close();
    }
  }, 30_000);
});
