import type { Conversation, ElicitRequest } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ConversationActors } from '../../src/conversations/conversation-actors';
import { conversation, createConversation, path, until } from '../support/flows';
import { register, startApi, type TestApi } from '../support/test-api';
import { connect, record, request, type ClientSocket } from '../support/test-socket';

/**
 * The concierge's card, tapped after the person thought about it past the idle time: the api
 * closed the runner, and the tap reaches one rebuilt from the tree, whose turn reads the
 * quarantine and asks the card again before it can take the tap. Driven through the socket as the
 * web client drives it.
 */
describe('a concierge card tapped after a pause', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let socket: ClientSocket;
  let c: Conversation;

  beforeAll(async () => {
    db = await createTestDatabase('api_concierge_walking_away');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'thinker'));
    c = await createConversation(api, token, { agent: 'concierge' });
    socket = await connect(api, token);
    const joined = await request(socket, 'conversation:join', { conversationId: c.id });
    if (!joined.ok) throw new Error(joined.error.message);
  });
  afterAll(async () => {
    socket?.close();
    await api?.close();
    await db?.drop();
  });

  const waitingOn = async (type: string): Promise<ElicitRequest> =>
    (
      await until(
        () => conversation(api, token, c.id),
        (v) => v.status === 'waiting' && v.pendingElicit?.type === type,
      )
    ).pendingElicit!;

  it('is taken: its pick is applied, and the next card is asked', async () => {
    const prompt = await waitingOn('chat');
    await request(socket, 'elicit:response', {
      conversationId: c.id,
      elicitId: prompt.elicitId,
      action: 'accept',
      content: { text: 'review my quarantined items' },
    });
    const card = await waitingOn('choose');

    // The runner goes away, as it does after RUNNER_IDLE_MS with nobody there.
    await api.app.get(ConversationActors).close(c.id);
    const tapped = await request(socket, 'elicit:response', {
      conversationId: c.id,
      elicitId: card.elicitId,
      action: 'accept',
      content: { choiceId: 'B' },
    });
    expect(tapped).toMatchObject({
      ok: true,
      node: { kind: 'response', payload: { elicitId: card.elicitId } },
    });

    const next = await until(
      () => conversation(api, token, c.id),
      (v) => v.status === 'waiting' && v.pendingElicit?.elicitId !== card.elicitId,
    );
    expect(next.pendingElicit).toMatchObject({ type: 'choose', message: expect.stringMatching(/this item/) });
    const updated = (await path(api, token, c.id)).find(
      (n) => n.kind === 'tool_result' && n.payload['name'] === 'update_activities',
    );
    expect(updated?.payload['outcome']).toMatchObject({ kind: 'success', value: { updated_count: 3 } });
  });

  it('rewound to the card after a pause, the card after it is withdrawn: no stale card stays on screen', async () => {
    const waiting = (await conversation(api, token, c.id)).pendingElicit;
    if (!waiting) throw new Error('no card waits after the first one was answered');
    const first = (await path(api, token, c.id)).find(
      (n) => n.kind === 'elicit' && n.payload['type'] === 'choose',
    );
    if (!first) throw new Error('the first card is not on the path');
    const withdrawn = record(socket, 'elicit:withdrawn');
    const asked = record(socket, 'elicit');

    // Away past the idle time again, then back to the first card to pick again.
    await api.app.get(ConversationActors).close(c.id);
    const rewound = await request(socket, 'conversation:rewind', { conversationId: c.id, to: first.id });
    if (!rewound.ok) throw new Error(rewound.error.message);

    expect(await withdrawn.next((e) => e.elicitId === waiting.elicitId)).toMatchObject({
      reason: expect.stringMatching(/^(?:head moved|branch left)$/),
    });
    expect(await asked.next((e) => e.elicitId === first.payload['elicitId'])).toMatchObject({
      type: 'choose',
    });
    expect((await conversation(api, token, c.id)).pendingElicits.map((q) => q.elicitId)).toEqual([
      first.payload['elicitId'],
    ]);
  });
});
