import { offlineResponder, startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { TIDYING_OFFLINE_RULES } from '@sweatpants/agent-tidying';
import type { Conversation, ElicitEvent, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { createConversation, path, PHOTO } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect, record, request, type ClientSocket } from '../support/test-socket';

/**
 * A tidying session on Claude as a person waits for it: the real SDK against the fake Anthropic
 * server on a model's clock (each reply's first token after a pause, then word by word), driven
 * over the socket as the browser drives it. What they notice: their words are answered by words
 * that stream in while the card is readied, the card comes with one model call, and a tap on it is
 * answered at once, with no model call, by where the item went and what comes next.
 */
describe('a tidying session on Claude, as a person waits for it', () => {
  let db: TestDatabase;
  let fake: FakeAnthropic;
  let api: TestApi;
  let socket: ClientSocket;
  let token: string;
  let c: Conversation;
  let elicits: ReturnType<typeof record<'elicit'>>;
  let tokens: ReturnType<typeof record<'token'>>;
  const answered = new Set<string>();
  /** the chat prompt the session waits at */
  let waiting: ElicitEvent;

  beforeAll(async () => {
    db = await createTestDatabase('api_tidying_on_claude');
    fake = await startFakeAnthropic({ timing: { firstTokenMs: 150, tokensPerSecond: 400 } });
    fake.respond(offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES)));
    api = await startApi({
      DATABASE_URL: db.url,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.url,
    });
    ({ token } = await register(api, 'claude-tidier'));
    c = await createConversation(api, token);
    socket = await connect(api, token);
    elicits = record(socket, 'elicit');
    tokens = record(socket, 'token');
    const joined = await request(socket, 'conversation:join', { conversationId: c.id });
    expect(joined.ok).toBe(true);
  }, 30_000);
  afterAll(async () => {
    socket?.close();
    await api?.close();
    await fake?.close();
    await db?.drop();
  });

  /** The next question the person has not answered yet. */
  const nextQuestion = async (): Promise<ElicitEvent> => {
    const e = await elicits.next((q) => q.conversationId === c.id && !answered.has(q.elicitId));
    answered.add(e.elicitId);
    return e;
  };
  const answer = async (q: ElicitEvent, content: unknown) => {
    const ack = await request(socket, 'elicit:response', {
      conversationId: c.id,
      elicitId: q.elicitId,
      action: 'accept',
      content,
    });
    expect(ack.ok).toBe(true);
  };
  const replies = async () =>
    (await path(api, token, c.id))
      .filter((n: TreeNode) => n.kind === 'assistant')
      .map((n) => n.payload['text']);

  it('streams a first sentence to typed words, shows the card after one model call, and answers a tap at once', async () => {
    // to the first question: what the space is for, then sorting begins with the photo's first thing
    let q = await nextQuestion();
    expect(q.type).toBe('chat');
    // the first message comes with a photo of the desk
    const sent = await call(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text: 'My desk is covered in mugs, papers and a lamp', photos: [PHOTO] },
    });
    expect(sent.status).toBe(201);
    for (q = await nextQuestion(); q.type !== 'chat'; q = await nextQuestion())
      await answer(q, q.type === 'choose' ? { choiceId: 'function-1' } : tapFirst(q));

    const calls = fake.requests.length;
    const streamedBefore = tokens.seen.length;
    await answer(q, { text: 'a coffee mug' });
    const card = await nextQuestion();
    expect(card.type).toBe('propose-disposition');
    // one call read the words and readied the card, and its first sentence streamed before the card
    expect(fake.requests.length - calls).toBe(1);
    const streamed = tokens.seen
      .slice(streamedBefore)
      .map((t) => t.text)
      .join('');
    expect(streamed).toMatch(/coffee mug/);

    await answer(card, tapFirst(card));
    waiting = await nextQuestion();
    expect(waiting.type).toBe('chat');
    // the tap cost no call: the coach said where the mug went itself
    expect(fake.requests.length - calls).toBe(1);
    expect((await replies()).at(-1)).toMatch(/^The coffee mug goes out, to the kitchen\./);
  }, 60_000);

  it("takes 'go' to the photo's next thing: its card comes with the one call that reads the word", async () => {
    const prompt = (await replies()).at(-1);
    const next = /Next, the (\w+): say go/.exec(String(prompt))?.[1];
    expect(next).toBeDefined();
    const calls = fake.requests.length;
    await answer(waiting, { text: 'go' });
    const card = await nextQuestion();
    expect(card).toMatchObject({ type: 'propose-disposition', payload: { item: next } });
    expect(fake.requests.length - calls).toBe(1);
  }, 60_000);
});

/** The first choice of a card, as a tap gives it. */
function tapFirst(q: ElicitEvent): unknown {
  const choices = (q.payload as { choices?: { disposition: unknown }[] }).choices ?? [];
  return { disposition: choices[0]?.disposition, wasCorrection: false };
}
