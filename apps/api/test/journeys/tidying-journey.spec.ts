import type {
  Conversation,
  ElicitRequest,
  NodeAndHead,
  ReflogPage,
  StateResponse,
  TidyingState,
  TreeNode,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { conversation, createConversation, OPENING, path, PHOTO, until } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';

/**
 * A whole tidying session as a person lives it, through the public api on the offline model: a
 * photo, an answer typed instead of tapped, a tangent in the middle of a card, taps, an edit, a
 * rewind and its undo, and "I'm done". Each step asserts what the person would notice: their
 * words still there, the item in the pile they chose, where it goes, the recap at the end.
 */
describe('a tidying session, as the person sees it', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let c: Conversation;

  beforeAll(async () => {
    db = await createTestDatabase('api_tidying_journey');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'tidier'));
    c = await createConversation(api, token);
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  /** The question the agent waits on once it has stopped working (a card, or the chat prompt). */
  const waitingOn = async (after?: string): Promise<ElicitRequest> => {
    const settled = await until(
      () => conversation(api, token, c.id),
      (v) => v.status === 'waiting' && v.pendingElicit !== null && v.pendingElicit.elicitId !== after,
    );
    return settled.pendingElicit as ElicitRequest;
  };
  const type = async (text: string, photos?: (typeof PHOTO)[]) => {
    const before = (await conversation(api, token, c.id)).pendingElicit?.elicitId;
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: photos ? { text, photos } : { text },
    });
    expect(res.status).toBe(201);
    return { node: res.body.node, next: await waitingOn(before) };
  };
  const tap = async (q: ElicitRequest, content: unknown) => {
    const res = await call<NodeAndHead>(
      api,
      'POST',
      `/api/conversations/${c.id}/elicits/${q.elicitId}/response`,
      { token, body: { action: 'accept', content } },
    );
    expect(res.status).toBe(200);
    return waitingOn(q.elicitId);
  };
  const state = async (at = 'HEAD') =>
    (
      await call<StateResponse<TidyingState>>(
        api,
        'GET',
        `/api/conversations/${c.id}/state?at=${encodeURIComponent(at)}`,
        { token },
      )
    ).body.state;
  const said = (nodes: readonly TreeNode[]) =>
    nodes.flatMap((n) => {
      if (n.authorId.startsWith('agent:')) return [];
      const text = n.kind === 'user' ? n.payload['text'] : (n.payload['content'] as { text?: unknown })?.text;
      return typeof text === 'string' ? [text] : [];
    });
  const lastReply = (nodes: readonly TreeNode[]) =>
    String(nodes.filter((n) => n.kind === 'assistant' && n.payload['text']).at(-1)?.payload['text']);
  const proposal = (q: ElicitRequest) => q.payload as { item: string; choices: { disposition: unknown }[] };

  it('goes from a photo to a recap without losing a word, and every item lands where it was put', async () => {
    // A photo of the desk: the coach asks what the space is for.
    const opened = await type(OPENING, [PHOTO]);
    expect(opened.next).toMatchObject({ type: 'choose', message: 'What do you need to DO in this space?' });

    // Typed instead of tapped: an answer in words is taken as the answer.
    const purpose = await type('writing letters');
    expect(purpose.node).toMatchObject({
      kind: 'response',
      payload: { action: 'other', content: { text: 'writing letters' } },
    });
    expect(purpose.next).toMatchObject({ type: 'propose-disposition', payload: { item: 'mugs' } });
    expect(await state()).toMatchObject({ phase: 'sorting', function: 'writing letters' });

    // A tangent in the middle of a card: answered, and the same card comes back after it.
    const card = purpose.next;
    const tangent = await type('wait, where do cables usually go?');
    // The coach answers it (offline, by saying it cannot), and nothing of the session changed.
    expect(lastReply(await path(api, token, c.id))).toMatch(/cannot answer that one: Claude could/);
    expect(await state()).toMatchObject({ phase: 'sorting', piles: { belongs: [], out: [], unsure: [] } });
    expect(tangent.next).toMatchObject({
      type: 'propose-disposition',
      payload: card.payload,
      resumes: card.elicitId,
    });

    // One tap: the mugs go to the kitchen, which is out of this room, and it says where.
    const kitchen = proposal(tangent.next).choices.find(
      (choice) =>
        JSON.stringify(choice.disposition) === JSON.stringify({ kind: 'place', location: 'kitchen' }),
    );
    expect(kitchen).toBeDefined();
    let next = await tap(tangent.next, { disposition: kitchen?.disposition, wasCorrection: false });
    expect(next.type).toBe('chat');
    expect(await state()).toMatchObject({
      piles: { belongs: [], out: ['mugs'], unsure: [] },
      destinations: { mugs: 'kitchen' },
      itemsProcessed: 1,
    });

    // Words again, this time for the cards: "bin it" and a place on the desk.
    next = (await type('the old letters')).next;
    expect(next).toMatchObject({ type: 'propose-disposition', payload: { item: 'old letters' } });
    next = (await type('bin it')).next;
    next = (await type('the lamp')).next;
    expect(next).toMatchObject({ type: 'propose-disposition', payload: { item: 'lamp' } });
    next = (await type('put it on the desk')).next;
    expect(next.type).toBe('chat');
    expect(await state()).toMatchObject({
      piles: { belongs: ['lamp'], out: ['mugs', 'old letters'], unsure: [] },
      itemsProcessed: 3,
    });

    // An edit of an earlier message: the lamp was a desk lamp. The old branch stays recoverable.
    const beforeEdit = await path(api, token, c.id);
    const lampMessage = beforeEdit.find((n) => n.kind === 'user' && n.payload['text'] === 'the lamp');
    const edited = await call<NodeAndHead>(
      api,
      'POST',
      `/api/conversations/${c.id}/nodes/${lampMessage?.id}/edit`,
      {
        token,
        body: { text: 'the desk lamp' },
      },
    );
    expect(edited.status).toBe(201);
    next = await waitingOn(next.elicitId);
    expect(next).toMatchObject({ type: 'propose-disposition', payload: { item: 'desk lamp' } });
    next = (await type('keep it on the shelf')).next;
    expect(await state()).toMatchObject({
      piles: { belongs: ['desk lamp'], out: ['mugs', 'old letters'], unsure: [] },
    });

    // A rewind to before the letters, then its undo: the state follows HEAD exactly.
    const afterEdit = await path(api, token, c.id);
    const lettersMessage = afterEdit.find(
      (n) => n.kind === 'user' && n.payload['text'] === 'the old letters',
    );
    const rewound = await call(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: lettersMessage?.parentId },
    });
    expect(rewound.status).toBe(200);
    expect(await state()).toMatchObject({ piles: { belongs: [], out: ['mugs'], unsure: [] } });
    const reflog = await call<ReflogPage>(api, 'GET', `/api/conversations/${c.id}/reflog?limit=2`, { token });
    const beforeRewind = reflog.body.entries.find((e) => e.action !== 'rewind');
    expect(beforeRewind).toBeDefined();
    const recovered = await call(api, 'POST', `/api/conversations/${c.id}/recover`, {
      token,
      body: { reflogId: beforeRewind?.id },
    });
    expect(recovered.status).toBe(200);
    expect(await state()).toMatchObject({
      piles: { belongs: ['desk lamp'], out: ['mugs', 'old letters'], unsure: [] },
    });

    // "I'm done": the session ends and the recap names every pile with its items.
    const chat = await waitingOn();
    expect(chat.type).toBe('chat');
    await type("I'm done");
    const final = await path(api, token, c.id);
    expect(await state()).toMatchObject({ phase: 'ended', ended: true, itemsProcessed: 3 });
    const recap = lastReply(final);
    expect(recap).toMatch(/Out \(2\): mugs → kitchen, old letters → trash/);
    expect(recap).toMatch(/Belongs here \(1\): desk lamp/);

    // Every word the person said on this branch is still on the path, in order.
    expect(said(final)).toEqual([
      OPENING,
      'writing letters',
      'wait, where do cables usually go?',
      'the old letters',
      'bin it',
      'the desk lamp',
      'keep it on the shelf',
      "I'm done",
    ]);
    // The edited-away words are not lost either: the edit's old branch is in the tree.
    expect(said(beforeEdit)).toContain('the lamp');

    // Only the person moved HEAD backwards; the agent only ever appended.
    const all = await call<ReflogPage>(api, 'GET', `/api/conversations/${c.id}/reflog?limit=200`, { token });
    const byAgent = all.body.entries.filter((e) => e.actorId.startsWith('agent:'));
    expect(byAgent.length).toBeGreaterThan(0);
    expect(new Set(byAgent.map((e) => e.action))).toEqual(new Set(['append']));
    const byUser = all.body.entries.filter((e) => !e.actorId.startsWith('agent:')).map((e) => e.action);
    expect(byUser).toEqual(expect.arrayContaining(['edit', 'rewind', 'recover']));
  }, 60_000);

  it('takes a kitchen table told in a sentence of its own, and two things sorted at a card, as a person meant them', async () => {
    c = await createConversation(api, token);
    // A sentence before the list: the coach starts with the first thing named, not the table.
    const opened = await type(
      "honestly I don't know where to start, the kitchen table is covered in mail, mugs and my kid's art stuff",
    );
    expect(opened.next).toMatchObject({ type: 'choose', message: 'What do you need to DO in this space?' });

    // A pick and more besides: none of it is lost.
    const purpose = await type('eating, and the kids do homework here');
    expect(purpose.next).toMatchObject({ type: 'propose-disposition', payload: { item: 'mail' } });
    expect(await state()).toMatchObject({ function: 'eating, and the kids do homework here' });

    // The mail told in its parts at its card: each lands where it was said to go, the reply says
    // so, and the mail is done: its card does not come back for a rest, and the mugs are next.
    const parts = await type('the bills I keep in the drawer, the junk mail goes in recycling');
    const replies = (await path(api, token, c.id))
      .filter((n) => n.kind === 'assistant' && n.authorId.startsWith('agent:'))
      .map((n) => String(n.payload['text'] ?? ''));
    expect(replies.slice(-2)).toEqual([
      '(offline) The bills stay here, in the drawer. Put the junk mail in the recycling.',
      "That's all of the mail sorted. Next, the mugs: say go, or tell me what you picked up.",
    ]);
    expect(parts.next).toMatchObject({ type: 'chat' });
    const after = await state();
    expect(after).toMatchObject({
      piles: { belongs: ['bills'], out: ['junk mail'], unsure: [] },
      spots: { bills: 'drawer' },
      destinations: { 'junk mail': 'recycling' },
    });
    expect(after.seen).not.toContain('mail');
  }, 60_000);
});
