import type {
  Conversation,
  ElicitRequest,
  NodeAndHead,
  StateResponse,
  TidyingState,
  TreeNode,
  TreePage,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ConversationActors } from '../../src/conversations/conversation-actors';
import { conversation, createConversation, OPENING, path, PHOTO, until } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect, request, type ClientSocket } from '../support/test-socket';

/**
 * What a person does that nobody scripts, driven through the socket as the web client drives it
 * (the chat prompt answered by its elicit id, cards by theirs): walking away past the idle time,
 * switching branches with the arrows and coming back, and carrying on after the recap.
 */
describe('a tidying session a person walks away from, branches and carries on', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let socket: ClientSocket;
  let c: Conversation;

  beforeAll(async () => {
    db = await createTestDatabase('api_walking_away');
    api = await startApi({ DATABASE_URL: db.url });
    ({ token } = await register(api, 'walker'));
  });
  beforeEach(async () => {
    c = await createConversation(api, token);
    socket = await connect(api, token);
    const joined = await request(socket, 'conversation:join', { conversationId: c.id });
    if (!joined.ok) throw new Error(joined.error.message);
  });
  afterEach(() => socket?.close());
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  /** The question the agent waits on once it has stopped working, once it is not `after`. */
  const waitingOn = async (after?: string): Promise<ElicitRequest> =>
    (
      await until(
        () => conversation(api, token, c.id),
        (v) => v.status === 'waiting' && v.pendingElicit !== null && v.pendingElicit.elicitId !== after,
      )
    ).pendingElicit!;

  /** Words typed into the composer, as the web client sends them: the chat prompt's answer by its id. */
  const typeAt = async (q: ElicitRequest, text: string, photos?: (typeof PHOTO)[]) =>
    q.type === 'chat'
      ? request(socket, 'elicit:response', {
          conversationId: c.id,
          elicitId: q.elicitId,
          action: 'accept',
          content: photos ? { text, photos } : { text },
        })
      : request(socket, 'message:send', { conversationId: c.id, text, ...(photos ? { photos } : {}) });
  const tap = (q: ElicitRequest, content: unknown) =>
    request(socket, 'elicit:response', {
      conversationId: c.id,
      elicitId: q.elicitId,
      action: 'accept',
      content,
    });
  const state = async () =>
    (await call<StateResponse<TidyingState>>(api, 'GET', `/api/conversations/${c.id}/state`, { token })).body
      .state;
  /** The runner goes away, as it does after RUNNER_IDLE_MS with nobody there. */
  const walkAway = () => api.app.get(ConversationActors).close(c.id);
  /** HEAD to the newest, deepest node under `nodeId`, as the branch arrows move it. */
  const switchTo = async (nodeId: string) => {
    const tree = await call<TreePage>(api, 'GET', `/api/conversations/${c.id}/tree?limit=500`, { token });
    const byId = new Map(tree.body.nodes.map((n) => [n.id, n]));
    let tip = byId.get(nodeId)!;
    const stack = [...tip.childIds];
    while (stack.length > 0) {
      const node = byId.get(stack.pop()!)!;
      if (node.depth > tip.depth || (node.depth === tip.depth && node.createdAt > tip.createdAt)) tip = node;
      stack.push(...node.childIds);
    }
    return request(socket, 'conversation:rewind', { conversationId: c.id, to: tip.id });
  };
  const kitchen = (q: ElicitRequest) =>
    (q.payload as { choices: { disposition: { kind: string; location?: string } }[] }).choices.find(
      (choice) => choice.disposition.location === 'kitchen',
    )!.disposition;

  /** A photo, the space's purpose, the mugs to the kitchen: the coach asks what comes next. */
  async function sortTheMugs(): Promise<ElicitRequest> {
    let q = await waitingOn();
    expect((await typeAt(q, OPENING, [PHOTO])).ok).toBe(true);
    q = await waitingOn(q.elicitId);
    expect(q.type).toBe('choose');
    expect((await typeAt(q, 'writing letters')).ok).toBe(true);
    q = await waitingOn(q.elicitId);
    expect(q).toMatchObject({ type: 'propose-disposition', payload: { item: 'mugs' } });
    expect((await tap(q, { disposition: kitchen(q), wasCorrection: false })).ok).toBe(true);
    return waitingOn(q.elicitId);
  }

  it('takes the first message typed after a pause at the chat prompt the person was looking at', async () => {
    const prompt = await sortTheMugs();
    expect(prompt.type).toBe('chat');

    await walkAway();
    const answered = await typeAt(prompt, 'a scarf');

    expect(answered).toMatchObject({ ok: true, node: { kind: 'user', payload: { text: 'a scarf' } } });
    const next = await waitingOn(prompt.elicitId);
    expect(next).toMatchObject({ type: 'propose-disposition', payload: { item: 'scarf' } });
    expect(await state()).toMatchObject({ piles: { out: ['mugs'] }, itemsProcessed: 1 });
  }, 60_000);

  it('takes a card tapped after a pause', async () => {
    const prompt = await sortTheMugs();
    expect((await typeAt(prompt, 'the old letters')).ok).toBe(true);
    const card = await waitingOn(prompt.elicitId);
    expect(card).toMatchObject({ type: 'propose-disposition', payload: { item: 'old letters' } });

    await walkAway();
    const tapped = await tap(card, { disposition: { kind: 'trash' }, wasCorrection: false });

    expect(tapped).toMatchObject({
      ok: true,
      node: { kind: 'response', payload: { elicitId: card.elicitId } },
    });
    await waitingOn(card.elicitId);
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'old letters'] }, itemsProcessed: 2 });
  }, 60_000);

  it('an answer to a question no longer pending says so and changes nothing', async () => {
    const prompt = await sortTheMugs();
    expect((await typeAt(prompt, 'a scarf')).ok).toBe(true);
    await waitingOn(prompt.elicitId);
    const headBefore = (await conversation(api, token, c.id)).head;

    const late = await typeAt(prompt, 'the lamp');

    expect(late).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(late.ok ? '' : late.error.message).toMatch(/no longer|already/i);
    expect((await conversation(api, token, c.id)).head).toBe(headBefore);
  }, 60_000);

  it('a card pending on a branch is pending again, under its id, when the person comes back to it', async () => {
    const prompt = await sortTheMugs();
    expect((await typeAt(prompt, 'the lamp')).ok).toBe(true);
    const lampCard = await waitingOn(prompt.elicitId);
    expect(lampCard).toMatchObject({ type: 'propose-disposition', payload: { item: 'lamp' } });

    // Edit "the lamp" to "the desk lamp": a second branch, with its own card.
    const message = (await path(api, token, c.id)).find(
      (n: TreeNode) => n.kind === 'user' && n.payload['text'] === 'the lamp',
    )!;
    const edited = await call<NodeAndHead>(
      api,
      'POST',
      `/api/conversations/${c.id}/nodes/${message.id}/edit`,
      {
        token,
        body: { text: 'the desk lamp' },
      },
    );
    expect(edited.status).toBe(201);
    const deskCard = await waitingOn(lampCard.elicitId);
    expect(deskCard).toMatchObject({ payload: { item: 'desk lamp' } });

    // ‹1/2›: back to the lamp's branch as the arrows go, to the newest tip of the sibling.
    expect((await switchTo(message.id)).ok).toBe(true);
    const lampAgain = await waitingOn(deskCard.elicitId);
    expect(lampAgain).toMatchObject({ elicitId: lampCard.elicitId, payload: { item: 'lamp' } });

    // ‹2/2›: and forward again; the desk lamp's card waits as it was, and answering it works.
    expect((await switchTo(edited.body.node.id)).ok).toBe(true);
    const deskAgain = await waitingOn(lampCard.elicitId);
    expect(deskAgain).toMatchObject({ elicitId: deskCard.elicitId, payload: { item: 'desk lamp' } });
    const tapped = await tap(deskAgain, { disposition: { kind: 'trash' }, wasCorrection: false });
    expect(tapped.ok).toBe(true);
    await waitingOn(deskAgain.elicitId);
    expect(await state()).toMatchObject({ piles: { out: ['mugs', 'desk lamp'] } });
    // Nothing was stopped on the way: the person only looked at the other branch.
    const tree = await call<TreePage>(api, 'GET', `/api/conversations/${c.id}/tree?limit=500`, { token });
    expect(tree.body.nodes.filter((n) => n.kind === 'cancel')).toEqual([]);
  }, 60_000);

  it('more words after the recap carry on the same session, piles kept', async () => {
    const prompt = await sortTheMugs();
    expect((await typeAt(prompt, "I'm done")).ok).toBe(true);
    const after = await waitingOn(prompt.elicitId);
    expect(await state()).toMatchObject({ ended: true, piles: { out: ['mugs'] }, itemsProcessed: 1 });

    expect((await typeAt(after, 'oh, and the lamp')).ok).toBe(true);
    const next = await waitingOn(after.elicitId);

    expect(next).toMatchObject({ type: 'propose-disposition', payload: { item: 'lamp' } });
    expect(await state()).toMatchObject({ piles: { out: ['mugs'] }, itemsProcessed: 1 });
  }, 60_000);
});
