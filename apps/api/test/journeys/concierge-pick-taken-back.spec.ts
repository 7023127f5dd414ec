import type {
  ConciergeState,
  Conversation,
  ElicitRequest,
  ReflogPage,
  StateResponse,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ConversationActors } from '../../src/conversations/conversation-actors';
import { conversation, createConversation, path, say, until } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect, request, type ClientSocket } from '../support/test-socket';

/**
 * A pick on the concierge's card changes the person's mail, which lives outside the conversation.
 * Taken back (a rewind to the card), the mail is as it was before the pick; the card skipped
 * instead, it stays so; the pick's branch recovered, the pick holds again. What the person would
 * notice is what a new review finds in quarantine, so that is what each step reads, through a
 * second conversation of theirs (the api has no read of the activities themselves). The new mail
 * sorted by the rules ("sort my new items") is taken back the same way, read as the inbox's count.
 */
describe('a concierge change taken back (offline model)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let socket: ClientSocket;
  let c: Conversation;
  /** the first card, on the promotions */
  let promos: ElicitRequest;
  const PROMOS = ['mail-101', 'mail-102', 'mail-103'];
  const ALL = [...PROMOS, 'mail-104', 'mail-105'];

  beforeAll(async () => {
    db = await createTestDatabase('api_concierge_pick_taken_back');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'second-thoughts'));
    c = await createConversation(api, token, { agent: 'concierge' });
    socket = await connect(api, token);
    const joined = await request(socket, 'conversation:join', { conversationId: c.id });
    if (!joined.ok) throw new Error(joined.error.message);
  }, 30_000);
  afterAll(async () => {
    socket?.close();
    await api?.close();
    await db?.drop();
  });

  const waitingOn = async (id: string, type: string, after?: string): Promise<ElicitRequest> =>
    (
      await until(
        () => conversation(api, token, id),
        (v) => v.status === 'waiting' && v.pendingElicit?.type === type && v.pendingElicit.elicitId !== after,
      )
    ).pendingElicit!;

  const answer = async (id: string, elicitId: string, response: object): Promise<void> => {
    const answered = await request(socket, 'elicit:response', { conversationId: id, elicitId, ...response });
    if (!answered.ok) throw new Error(answered.error.message);
  };

  /** What a new review of the quarantine reads: the ids of the mail waiting there, sorted. */
  const quarantined = async (): Promise<string[]> => {
    const fresh = await createConversation(api, token, { agent: 'concierge' });
    const prompt = await waitingOn(fresh.id, 'chat');
    await answer(fresh.id, prompt.elicitId, {
      action: 'accept',
      content: { text: 'review my quarantined items' },
    });
    await waitingOn(fresh.id, 'choose');
    const read = await call<StateResponse<ConciergeState>>(
      api,
      'GET',
      `/api/conversations/${fresh.id}/state`,
      {
        token,
      },
    );
    return (read.body.state.review?.items ?? []).map((i) => i.id).sort();
  };

  it('a pick takes its mail out of quarantine', async () => {
    const prompt = await waitingOn(c.id, 'chat');
    await answer(c.id, prompt.elicitId, {
      action: 'accept',
      content: { text: 'review my quarantined items' },
    });
    promos = await waitingOn(c.id, 'choose');
    expect(await quarantined()).toEqual(ALL);

    await answer(c.id, promos.elicitId, { action: 'accept', content: { choiceId: 'A' } });
    await waitingOn(c.id, 'choose', promos.elicitId);
    expect(await quarantined()).toEqual(['mail-104', 'mail-105']);
  });

  it('rewound to its card after a pause, the pick is taken back: its mail is in quarantine again', async () => {
    // Away past the idle time: the runner that made the pick is gone.
    await api.app.get(ConversationActors).close(c.id);
    const card = (await path(api, token, c.id)).find(
      (n) => n.kind === 'elicit' && n.payload['elicitId'] === promos.elicitId,
    );
    if (!card) throw new Error('the first card is not on the path');
    const rewound = await request(socket, 'conversation:rewind', { conversationId: c.id, to: card.id });
    if (!rewound.ok) throw new Error(rewound.error.message);
    expect((await waitingOn(c.id, 'choose')).elicitId).toBe(promos.elicitId);

    expect(await quarantined()).toEqual(ALL);
    const state = await call<StateResponse<ConciergeState>>(api, 'GET', `/api/conversations/${c.id}/state`, {
      token,
    });
    expect(state.body.state.review).toMatchObject({ done: 0, total: 5 });
  });

  it('"Skip this" then leaves that mail as it was, untouched', async () => {
    await answer(c.id, promos.elicitId, { action: 'decline' });
    await waitingOn(c.id, 'choose', promos.elicitId);
    expect(await quarantined()).toEqual(ALL);
  });

  /** Recovers, from the reflog, the HEAD the conversation's rewind left, and waits for it. */
  const recoverWhatTheRewindLeft = async (id: string): Promise<void> => {
    const reflog = await call<ReflogPage>(api, 'GET', `/api/conversations/${id}/reflog?limit=100`, {
      token,
    });
    const rewind = reflog.body.entries.find((e) => e.action === 'rewind');
    const left = reflog.body.entries.find((e) => e.newHead === rewind?.oldHead);
    if (!left) throw new Error('no reflog entry names the HEAD the rewind left');
    const recovered = await request(socket, 'conversation:recover', {
      conversationId: id,
      reflogId: left.id,
    });
    if (!recovered.ok) throw new Error(recovered.error.message);
    await until(
      () => conversation(api, token, id),
      (v) => v.head === rewind?.oldHead && v.status === 'waiting',
    );
  };

  it('the branch with the pick recovered, the pick holds again', async () => {
    await recoverWhatTheRewindLeft(c.id);
    expect(await quarantined()).toEqual(['mail-104', 'mail-105']);
  });

  describe('the new mail sorted by the rules', () => {
    let d: Conversation;
    /** What the concierge says the inbox holds, asked in a new conversation. */
    const inbox = async (): Promise<string> => {
      const fresh = await createConversation(api, token, { agent: 'concierge' });
      await waitingOn(fresh.id, 'chat');
      await say(api, token, fresh.id, "what's in my inbox?");
      const reply = (await path(api, token, fresh.id)).findLast(
        (n) => n.kind === 'assistant' && n.payload['purpose'] === undefined,
      );
      return String(reply?.payload['text']);
    };

    it('"sort my new items" sorts the four waiting', async () => {
      expect(await inbox()).toContain('4 new and not sorted yet');
      d = await createConversation(api, token, { agent: 'concierge' });
      await waitingOn(d.id, 'chat');
      await say(api, token, d.id, 'sort my new items');
      expect(await inbox()).not.toContain('new and not sorted yet');
    });

    it('rewound to before the words after a pause, the four wait to be sorted again', async () => {
      await api.app.get(ConversationActors).close(d.id);
      const asked = (await path(api, token, d.id)).findLast(
        (n) => n.kind === 'user' && n.payload['text'] === 'sort my new items',
      );
      if (!asked?.parentId) throw new Error('the words are not on the path');
      const rewound = await request(socket, 'conversation:rewind', {
        conversationId: d.id,
        to: asked.parentId,
      });
      if (!rewound.ok) throw new Error(rewound.error.message);
      await waitingOn(d.id, 'chat');
      expect(await inbox()).toContain('4 new and not sorted yet');
    });

    it('the words recovered, the four are sorted again', async () => {
      await recoverWhatTheRewindLeft(d.id);
      expect(await inbox()).not.toContain('new and not sorted yet');
    });
  });
});
