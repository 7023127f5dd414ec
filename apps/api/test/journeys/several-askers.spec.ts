import type { Conversation, ElicitRequest, StateResponse, TidyingState, TreeNode } from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { answer, conversation, createConversation, OPENING, path, PHOTO, say, until } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect, record, request } from '../support/test-socket';

/**
 * Questions from several agents at once (issue 34), through the public api on the offline model:
 * in a tidying session, the coach proposes to donate a jigsaw puzzle, and the donation helper, handed the
 * item, asks its own question alongside the coach's card. Both are pending, each says who asks,
 * they survive a restart, and the person answers them in the reverse order they were asked.
 */
describe('questions from two agents pending at once, as the person sees them', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let c: Conversation;

  beforeAll(async () => {
    db = await createTestDatabase('api_several_askers');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'giver'));
    c = await createConversation(api, token);
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const view = () => conversation(api, token, c.id);
  const waitingOn = (done: (pending: ElicitRequest[]) => boolean) =>
    until(view, (v) => v.status === 'waiting' && done(v.pendingElicits));
  const state = async () =>
    (await call<StateResponse<TidyingState>>(api, 'GET', `/api/conversations/${c.id}/state`, { token })).body
      .state;
  const tap = async (q: ElicitRequest, content: unknown) => {
    const res = await answer(api, token, c.id, q, { action: 'accept', content });
    expect(res.status).toBe(200);
  };
  const choice = (q: ElicitRequest, kind: string) =>
    (q.payload as { choices: { disposition: { kind: string } }[] }).choices.find(
      (x) => x.disposition.kind === kind,
    )?.disposition;
  const replies = (nodes: readonly TreeNode[]) =>
    nodes
      .filter((n) => n.kind === 'assistant')
      .map((n) => ({ by: n.authorId, text: String(n.payload['text']) }));

  /** A session under way: the desk's photo and purpose, and the mugs sorted; the chat prompt waits. */
  const sessionUnderWay = async () => {
    await say(api, token, c.id, OPENING, [PHOTO]);
    await say(api, token, c.id, 'writing letters');
    const [mugs] = (await waitingOn((p) => p[0]?.type === 'propose-disposition')).pendingElicits;
    await tap(mugs as ElicitRequest, {
      disposition: choice(mugs as ElicitRequest, 'place'),
      wasCorrection: false,
    });
    await waitingOn((p) => p[0]?.type === 'chat');
  };

  /** A new conversation under way, with the coach's card and the helper's question about `thing` pending. */
  const bothAskedAbout = async (thing: string): Promise<[ElicitRequest, ElicitRequest]> => {
    c = await createConversation(api, token);
    await sessionUnderWay();
    await call(api, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text: thing } });
    return (await waitingOn((p) => p.length === 2)).pendingElicits as [ElicitRequest, ElicitRequest];
  };

  it('asks the coach’s card and the helper’s question together, each attributed, answered in reverse order', async () => {
    await sessionUnderWay();

    // A jigsaw puzzle: the coach proposes to donate it, and the donation helper asks alongside.
    await call(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text: 'a jigsaw puzzle' },
    });
    const both = await waitingOn((p) => p.length === 2);
    const [card, offer] = both.pendingElicits as [ElicitRequest, ElicitRequest];
    expect(card).toMatchObject({
      type: 'propose-disposition',
      askedBy: 'tidying',
      payload: { item: 'jigsaw puzzle' },
    });
    expect(offer).toMatchObject({
      type: 'confirm',
      askedBy: 'donations',
      message: 'Shall I find a place that takes the jigsaw puzzle?',
    });
    // Older clients see the first, the coach's card.
    expect(both.pendingElicit).toEqual(card);
    const asked = (await path(api, token, c.id)).filter((n) => n.kind === 'elicit').slice(-2);
    expect(asked.map((n) => n.authorId)).toEqual(['agent:tidying', 'agent:donations']);

    // A restart loses neither question, nor who asks it.
    await api.close();
    api = await startApi({ DATABASE_URL: db.url });
    const after = await waitingOn((p) => p.length === 2);
    expect(after.pendingElicits.map(({ elicitId, askedBy }) => ({ elicitId, askedBy }))).toEqual([
      { elicitId: card.elicitId, askedBy: 'tidying' },
      { elicitId: offer.elicitId, askedBy: 'donations' },
    ]);

    // A client joining over the socket is sent each question again, saying who asks it.
    const socket = await connect(api, token);
    try {
      const elicits = record(socket, 'elicit');
      await request(socket, 'conversation:join', { conversationId: c.id });
      const resent = await Promise.all(
        [card, offer].map((q) => elicits.next((e) => e.elicitId === q.elicitId)),
      );
      expect(resent.map((e) => e.askedBy)).toEqual(['tidying', 'donations']);
    } finally {
      socket.disconnect();
    }

    // The helper's question first: the helper answers in its own name, and the card still waits.
    await tap(offer, { value: true });
    const cardLeft = await waitingOn((p) => p.length === 1 && p[0]?.elicitId === card.elicitId);
    expect(cardLeft.pendingElicit).toMatchObject({ askedBy: 'tidying' });
    const helperSaid = await until(
      () => path(api, token, c.id),
      (nodes) => replies(nodes).at(-1)?.by === 'agent:donations',
    );
    expect(replies(helperSaid).at(-1)).toEqual({
      by: 'agent:donations',
      text: expect.stringMatching(/^A charity shop or a toy library usually takes the jigsaw puzzle\./),
    });

    // Then the coach's card: the puzzle goes on the donate pile, and the session waits for the next thing.
    await tap(card, { disposition: choice(card, 'donate'), wasCorrection: false });
    await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'jigsaw puzzle'] }, itemsProcessed: 2 });
    const final = await path(api, token, c.id);
    expect(replies(final).at(-1)?.by).toBe('agent:tidying');
    // Each answer recorded once, by the person, after the question it answers.
    const answers = final.filter((n) => n.kind === 'response').slice(-2);
    expect(answers.map((n) => n.payload['elicitId'])).toEqual([offer.elicitId, card.elicitId]);
    expect(answers.every((n) => !n.authorId.startsWith('agent:'))).toBe(true);
  }, 60_000);

  it('puts the item on its pile as soon as the coach’s card is tapped, while the helper’s question still waits', async () => {
    const [card, offer] = await bothAskedAbout('a jigsaw puzzle');

    // The card first: the puzzle is in Out at once, the helper's question still open.
    await tap(card, { disposition: choice(card, 'donate'), wasCorrection: false });
    const helperLeft = await waitingOn((p) => p.length === 1 && p[0]?.elicitId === offer.elicitId);
    expect(helperLeft.pendingElicit).toMatchObject({ askedBy: 'donations' });
    expect(await until(state, (s) => s.piles.out.length === 2)).toMatchObject({
      piles: { out: ['mugs', 'jigsaw puzzle'] },
      itemsProcessed: 2,
    });

    // A restart keeps both: the pile as it is and the question still asked.
    await api.close();
    api = await startApi({ DATABASE_URL: db.url });
    await waitingOn((p) => p.length === 1 && p[0]?.elicitId === offer.elicitId);
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'jigsaw puzzle'] } });

    // Then the helper's question: it answers, the coach says where the puzzle went, the prompt waits.
    await tap(offer, { value: true });
    await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');
    const final = await path(api, token, c.id);
    expect(
      replies(final)
        .map((r) => r.by)
        .slice(-2),
    ).toEqual(['agent:donations', 'agent:tidying']);
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'jigsaw puzzle'] }, itemsProcessed: 2 });
    const answers = final.filter((n) => n.kind === 'response').slice(-2);
    expect(answers.map((n) => n.payload['elicitId'])).toEqual([card.elicitId, offer.elicitId]);
  }, 60_000);

  it('asks the helper once when doubt typed at the coach’s card brings decision support’s own card about the same thing', async () => {
    const [card, offer] = await bothAskedAbout('a jigsaw puzzle');

    // Doubt typed at the card, deciding nothing: the coach talks it through, with a card of its own.
    const typed = await answer(api, token, c.id, card, {
      action: 'other',
      content: { text: 'the kids might play with it again one day' },
    });
    expect(typed.status).toBe(200);
    const support = await waitingOn((p) =>
      p.some((q) => q.type === 'propose-disposition' && q.elicitId !== card.elicitId),
    );
    const again = support.pendingElicits.find((q) => q.type === 'propose-disposition') as ElicitRequest;
    expect(again.payload).toMatchObject({ item: 'jigsaw puzzle' });
    expect(support.pendingElicits.filter((q) => q.askedBy === 'donations').map((q) => q.elicitId)).toEqual([
      offer.elicitId,
    ]);
    const talkedThrough = await until(
      () => path(api, token, c.id),
      (nodes) => replies(nodes).some((r) => /help with what this space is for/.test(r.text)),
    );
    expect(replies(talkedThrough).at(-1)?.text).toMatch(
      /^\(offline\) Does the jigsaw puzzle help with what this space is for\? If not, it can go\./,
    );

    // Donated there, and the helper answered: the puzzle is out once, its first card not asked again.
    await tap(again, { disposition: choice(again, 'donate'), wasCorrection: false });
    await tap(offer, { value: true });
    await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'jigsaw puzzle'] }, itemsProcessed: 2 });
    const nodes = await path(api, token, c.id);
    expect(nodes.filter((n) => n.kind === 'elicit' && n.authorId === 'agent:donations')).toHaveLength(1);
    const cards = nodes.filter(
      (n) =>
        n.kind === 'elicit' && n.authorId === 'agent:tidying' && JSON.stringify(n.payload).includes('jigsaw'),
    );
    expect(cards).toHaveLength(2);

    // After a restart the session goes on from there: the next thing is asked about.
    await api.close();
    api = await startApi({ DATABASE_URL: db.url });
    await call(api, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text: 'a board game' } });
    const next = await waitingOn((p) => p.some((q) => q.type === 'propose-disposition'));
    expect(next.pendingElicits.find((q) => q.type === 'propose-disposition')?.payload).toMatchObject({
      item: 'board game',
    });
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'jigsaw puzzle'] } });
  }, 60_000);

  it('offers no more once the person said no to the helper: the next thing to give away has the coach’s card alone', async () => {
    const [card, offer] = await bothAskedAbout('a jigsaw puzzle');
    await tap(offer, { value: false });
    await tap(card, { disposition: choice(card, 'donate'), wasCorrection: false });
    await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');

    // A board game, donated first too: the coach's card, and no second offer from the helper.
    await call(api, 'POST', `/api/conversations/${c.id}/messages`, { token, body: { text: 'a board game' } });
    const next = await waitingOn((p) => p.some((q) => q.type === 'propose-disposition'));
    const game = next.pendingElicits.find((q) => q.type === 'propose-disposition') as ElicitRequest;
    expect(game.payload).toMatchObject({ item: 'board game' });
    await tap(game, { disposition: choice(game, 'donate'), wasCorrection: false });
    await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');
    const nodes = await path(api, token, c.id);
    expect(nodes.filter((n) => n.kind === 'elicit' && n.authorId === 'agent:donations')).toHaveLength(1);
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'jigsaw puzzle', 'board game'] } });
  }, 60_000);

  it('withdraws the helper’s offer once the coach’s card sends the thing elsewhere in the person’s words ("I’ll sell it on ebay")', async () => {
    const [card, offer] = await bothAskedAbout('a jigsaw puzzle');

    const typed = await answer(api, token, c.id, card, {
      action: 'other',
      content: { text: "I'll sell it on ebay" },
    });
    expect(typed.status).toBe(200);

    // Only the chat prompt waits: no offer to find a place that takes a puzzle going to be sold.
    await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');
    expect(await state()).toMatchObject({
      piles: { out: ['mugs', 'jigsaw puzzle'] },
      destinations: { 'jigsaw puzzle': 'sell pile' },
    });
    const nodes = await path(api, token, c.id);
    // The offer is settled on the path (a restart does not ask it again), and the coach has the last word.
    expect(
      nodes.find((n) => n.kind === 'response' && n.payload['elicitId'] === offer.elicitId)?.payload,
    ).toMatchObject({ action: 'decline' });
    expect(replies(nodes).at(-1)).toEqual({
      by: 'agent:tidying',
      text: expect.stringMatching(/The jigsaw puzzle goes out, to the sell pile\./),
    });
    await api.close();
    api = await startApi({ DATABASE_URL: db.url });
    const after = await waitingOn((p) => p.length === 1);
    expect(after.pendingElicits.map((q) => q.type)).toEqual(['chat']);
  }, 60_000);

  it('writes the coach’s wrap-up in the coach’s name when "I’m done" is typed at the helper’s question', async () => {
    const [card, offer] = await bothAskedAbout('a jigsaw puzzle');
    await tap(card, { disposition: choice(card, 'donate'), wasCorrection: false });
    await waitingOn((p) => p.length === 1 && p[0]?.elicitId === offer.elicitId);

    const typed = await answer(api, token, c.id, offer, { action: 'other', content: { text: "I'm done" } });
    expect(typed.status).toBe(200);
    await until(state, (s) => s.phase === 'ended');
    const nodes = await until(
      () => path(api, token, c.id),
      (ns) => replies(ns).some((r) => /^\(offline\) Session done/.test(r.text)),
    );
    const recap = replies(nodes).find((r) => /^\(offline\) Session done/.test(r.text));
    expect(recap?.by).toBe('agent:tidying');
    // What the coach wrote in that turn is the coach's, not the helper's whose question it was.
    const turn = nodes.slice(
      nodes.findIndex((n) => n.kind === 'response' && n.payload['elicitId'] === offer.elicitId),
    );
    expect(
      turn
        .filter((n) => n.kind === 'tool_call' && n.payload['name'] === 'end_session')
        .map((n) => n.authorId),
    ).toEqual(['agent:tidying']);
  }, 60_000);

  it('keeps the answer already given when the person stops with the other question still waiting', async () => {
    const [card, offer] = await bothAskedAbout('a board game');

    await tap(offer, { value: false });
    await waitingOn((p) => p.length === 1 && p[0]?.elicitId === card.elicitId);
    const stopped = await call(api, 'POST', `/api/conversations/${c.id}/cancel`, { token });
    expect(stopped.status).toBe(200);

    // The card is withdrawn; the helper's answer and its word stay on the path, the game unsorted.
    const after = await waitingOn((p) => p.length === 1 && p[0]?.type === 'chat');
    expect(after.pendingElicits.map((q) => q.askedBy)).toEqual(['tidying']);
    const nodes = await path(api, token, c.id);
    expect(nodes.some((n) => n.kind === 'response' && n.payload['elicitId'] === offer.elicitId)).toBe(true);
    expect(replies(nodes)).toContainEqual({
      by: 'agent:donations',
      text: "All right, I'll leave the board game to you.",
    });
    expect(nodes.at(-1)?.kind).toBe('cancel');
    expect(await state()).toMatchObject({ piles: { out: ['mugs'] }, itemsProcessed: 1 });
  }, 60_000);
});
