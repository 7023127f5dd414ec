import type {
  ConciergeState,
  Conversation,
  ElicitEvent,
  ElicitRequest,
  HeadMove,
  NodeAndHead,
  NodeResponse,
  ReflogEntry,
  ReflogPage,
  ReviewDecision,
  ReviewItem,
  StateResponse,
  TreeListingNode,
  TreeNode,
  TreePage,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { conversation, createConversation, path, until } from '../support/flows';
import { call, register, startApi, type TestApi } from '../support/test-api';
import { connect, record, request, type ClientSocket } from '../support/test-socket';

/**
 * One concierge session on the offline model, driven as a person drives it through the public
 * api: they ask to review their quarantined mail (the demo activities every new account gets),
 * tap a card, take it back, tap again, type a letter instead of tapping, ask a question while a
 * card waits (it is answered, then the same card comes back), mistype a letter at that card and
 * fix it by going back to the card. What they should notice: each card shows its letters,
 * nothing they said drops out of the conversation, a question is answered rather than taken for
 * an answer, the review's progress and decisions are in the state, and the last reply tells them
 * every change, which is also what their activities now are.
 */

type Card = ElicitRequest & { payload: { options: { id: string; label: string; description?: string }[] } };

const PROMOS: Omit<ReviewItem, 'decision'>[] = [
  { id: 'mail-101', title: '20% off rain shells this weekend', from: 'Trailgear' },
  { id: 'mail-102', title: 'Your points expire in 30 days', from: 'Trailgear Rewards' },
  { id: 'mail-103', title: 'Picks for you this week', from: 'Bookbarn' },
];
const BANK: Omit<ReviewItem, 'decision'> = {
  id: 'mail-104',
  title: 'Changes to your account terms',
  from: 'Northbank',
};
const NEWSLETTER: Omit<ReviewItem, 'decision'> = {
  id: 'mail-105',
  title: 'Issue 112: winter greens',
  from: 'The Weekly Sprout',
};

const LABELS = {
  A: 'A. Newsletter from a marketing list → Tier 1 (auto-archive)',
  B: "B. Promo from a vendor you've bought from → Tier 2 (note, don't surface)",
  C: 'C. Important update from a service you use → Tier 3 (review)',
};
const DECISIONS: Record<'A' | 'B' | 'C', ReviewDecision> = {
  A: { optionId: 'A', label: LABELS.A, status: 'archived', activityType: 'newsletter', autonomyTier: 1 },
  B: { optionId: 'B', label: LABELS.B, status: 'processed', activityType: 'promotion', autonomyTier: 2 },
  C: { optionId: 'C', label: LABELS.C, status: 'surfaced', activityType: 'service-update', autonomyTier: 3 },
};

describe('a concierge session, as the person lives it (offline model)', () => {
  let db: TestDatabase;
  let api: TestApi;
  let token: string;
  let userId: string;
  let socket: ClientSocket;
  let elicits: ReturnType<typeof record<'elicit'>>;
  let c: Conversation;

  /** What the person said that they still stand by: every one must stay on HEAD's path. */
  const kept: { what: string; nodeId: string }[] = [];
  /** What they said and then took back themselves (a rewind past it, an edit of it). */
  const withdrawn: { what: string; nodeId: string }[] = [];

  let promos: Card;
  let newsletter: Card;
  let bank: Card;
  /** the bank's card again, after the question asked while it waited */
  let bankAgain: Card;

  beforeAll(async () => {
    db = await createTestDatabase('api_concierge_journey');
    api = await startApi({ DATABASE_URL: db.url });
    ({
      token,
      user: { id: userId },
    } = await register(api, 'concierge-journey'));
    c = await createConversation(api, token, { agent: 'concierge' });
    socket = await connect(api, token);
    elicits = record(socket, 'elicit');
    const joined = await request(socket, 'conversation:join', { conversationId: c.id });
    if (!joined.ok) throw new Error(joined.error.message);
  }, 30_000);
  afterAll(async () => {
    socket?.close();
    await api?.close();
    await db?.drop();
  });

  // ---- what the person sees, read through the public api ----

  const state = async (): Promise<ConciergeState> =>
    (await call<StateResponse<ConciergeState>>(api, 'GET', `/api/conversations/${c.id}/state`, { token }))
      .body.state;

  /** The conversation once the agent stops on something other than `previous`: a card, or the chat prompt. */
  const nextAsk = (previous: string): Promise<Conversation> =>
    until(
      () => conversation(api, token, c.id),
      (now) =>
        now.status === 'waiting' && now.pendingElicit !== null && now.pendingElicit.elicitId !== previous,
    );

  const nextCard = async (previous: string): Promise<Card> => {
    const now = await nextAsk(previous);
    expect(now.pendingElicit?.type).toBe('choose');
    return now.pendingElicit as Card;
  };

  /** The agent's replies as the chat shows them (not the runtime's side calls, which it hides). */
  const replies = async (): Promise<string[]> =>
    (await path(api, token, c.id))
      .filter((n) => n.kind === 'assistant' && n.payload['purpose'] === undefined)
      .map((n) => String(n.payload['text']));

  /** Types a message into the chat box (POST .../messages). */
  const type = async (text: string): Promise<TreeNode> => {
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${c.id}/messages`, {
      token,
      body: { text },
    });
    expect(res.status).toBe(201);
    return res.body.node;
  };

  /** Taps an option of the card on the screen (Socket.IO, as the web client does). */
  const tap = async (card: Card, choiceId: string): Promise<TreeNode> => {
    const ack = await request(socket, 'elicit:response', {
      conversationId: c.id,
      elicitId: card.elicitId,
      action: 'accept',
      content: { choiceId },
    });
    if (!ack.ok) throw new Error(`the tap was refused: ${ack.error.code} ${ack.error.message}`);
    return ack.node;
  };

  const reviewed = (decisions: Record<string, ReviewDecision | null>): ReviewItem[] =>
    [PROMOS[0]!, BANK, PROMOS[1]!, PROMOS[2]!, NEWSLETTER].map((item) => ({
      ...item,
      decision: decisions[item.id] ?? null,
    }));

  // ---- the journey ----

  it('opens the review when asked; the first card offers three readings, each showing its letter', async () => {
    expect(c.pendingElicit).toMatchObject({ type: 'chat', message: 'What shall we sort?' });
    const asked = await type('review my quarantined items');
    expect(asked).toMatchObject({
      kind: 'user',
      payload: { text: 'review my quarantined items' },
      authorId: userId,
    });
    kept.push({ what: 'the request to review', nodeId: asked.id });

    promos = await nextCard(c.pendingElicit!.elicitId);
    expect(promos.message).toBe(
      'How should I read these 3 items? Tap one, or type e.g. “B for all of these”.',
    );
    expect(promos.payload.options.map((o) => ({ id: o.id, label: o.label }))).toEqual([
      { id: 'A', label: LABELS.A },
      { id: 'B', label: LABELS.B },
      { id: 'C', label: LABELS.C },
    ]);
    // The same card reaches the screen over the socket, with the node that asks it.
    const shown = await elicits.next((e) => e.elicitId === promos.elicitId);
    expect(shown).toMatchObject({ conversationId: c.id, type: 'choose', payload: promos.payload });

    // Above the card, the concierge says what it read; the readings are the card's, not said twice.
    const said = (await replies()).at(-1);
    expect(said).toContain(
      '5 quarantined items. These 3 items read alike: “20% off rain shells this weekend” (Trailgear), “Your points expire in 30 days” (Trailgear Rewards), “Picks for you this week” (Bookbarn). After these, 2 more groups.',
    );
    expect(said).not.toContain('Tier 1');

    expect(await state()).toMatchObject({
      mode: 'interview',
      reviewing: PROMOS.map((p) => p.id),
      review: { items: reviewed({}), done: 0, total: 5 },
    });
  }, 30_000);

  it('takes back a mistaken tap by rewinding to the card, which waits again, and then takes the right tap', async () => {
    const wrong = await tap(promos, 'A');
    expect(wrong).toMatchObject({
      kind: 'response',
      payload: { elicitId: promos.elicitId, action: 'accept', content: { choiceId: 'A' } },
      authorId: userId,
    });
    withdrawn.push({ what: 'the mistaken tap A on the promotions', nodeId: wrong.id });
    const after = await nextCard(promos.elicitId);
    expect(await state()).toMatchObject({ review: { done: 3, total: 5 } });

    // Back to the card: the same question, not yet answered, and the review as it was then (the
    // activities the abandoned tap archived are put back: concierge-pick-taken-back.spec).
    const asked: ElicitEvent = await elicits.next((e) => e.elicitId === promos.elicitId);
    const rewound = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: asked.nodeId },
    });
    expect(rewound.status).toBe(200);
    expect(rewound.body).toMatchObject({
      head: asked.nodeId,
      reflog: { action: 'rewind', newHead: asked.nodeId, actorId: userId },
    });
    const again = await nextAsk(after.elicitId);
    expect(again.pendingElicit).toEqual(promos);
    expect(await state()).toMatchObject({ review: { items: reviewed({}), done: 0, total: 5 } });
    expect((await path(api, token, c.id)).map((n) => n.id)).not.toContain(wrong.id);

    const right = await tap(promos, 'B');
    kept.push({ what: 'the tap B on the promotions', nodeId: right.id });
    newsletter = await nextCard(promos.elicitId);
    expect(newsletter.message).toBe('How should I read this item? Tap one, or type its letter.');
    expect(newsletter.payload.options.map((o) => o.label)).toEqual([LABELS.A, LABELS.B, LABELS.C]);
    expect((await replies()).at(-1)).toContain('Done: 3 updated, now processed, Tier 2.');
    // The next card's words recall what the interview learnt from the tap; the rewound tap taught
    // it nothing.
    expect((await replies()).at(-1)).toContain(
      `So far you chose: ${LABELS.B} for mail from Trailgear, Trailgear Rewards, Bookbarn. Next, one item on its own`,
    );
    expect(await state()).toMatchObject({
      lastChoice: { optionId: 'B', label: LABELS.B, activityIds: PROMOS.map((p) => p.id) },
      review: {
        items: reviewed({ 'mail-101': DECISIONS.B, 'mail-102': DECISIONS.B, 'mail-103': DECISIONS.B }),
        done: 3,
        total: 5,
        learnt: [`${LABELS.B} for mail from Trailgear, Trailgear Rewards, Bookbarn`],
      },
    });
  }, 30_000);

  it('takes a letter typed while the next card waits as that card’s option', async () => {
    const typed = await type('a');
    // Typed while a card waits, the words answer it off-script.
    expect(typed).toMatchObject({
      kind: 'response',
      payload: { elicitId: newsletter.elicitId, action: 'other', content: { text: 'a' } },
      authorId: userId,
    });
    kept.push({ what: 'the letter “a” typed for the newsletter', nodeId: typed.id });

    bank = await nextCard(newsletter.elicitId);
    expect(bank.message).toBe('How should I read this item? Tap one, or type its letter.');
    expect(bank.payload.options.map((o) => o.label)).toEqual([LABELS.A, LABELS.B, LABELS.C]);
    const said = await replies();
    expect(said).toContain('(offline) A: applying it to the item.');
    expect(said.at(-1)).toContain('Done: 1 updated, now archived, Tier 1.');
    expect(said.at(-1)).toContain(
      `So far you chose: ${LABELS.B} for mail from Trailgear, Trailgear Rewards, Bookbarn; ${LABELS.A} for mail from The Weekly Sprout.`,
    );
    expect(await state()).toMatchObject({
      reviewing: [BANK.id],
      lastChoice: { optionId: 'A', label: LABELS.A, activityIds: [NEWSLETTER.id] },
      review: {
        items: reviewed({
          'mail-101': DECISIONS.B,
          'mail-102': DECISIONS.B,
          'mail-103': DECISIONS.B,
          'mail-105': DECISIONS.A,
        }),
        done: 4,
        total: 5,
      },
    });
  }, 30_000);

  it('answers a question typed while the last card waits, brings the same card back, and a letter typed there decides it', async () => {
    const question = 'wait, what does tier 2 mean?';
    const typed = await type(question);
    expect(typed).toMatchObject({
      kind: 'response',
      payload: { elicitId: bank.elicitId, action: 'other', content: { text: question } },
      authorId: userId,
    });
    kept.push({ what: 'the question about tier 2', nodeId: typed.id });

    // Once the question is answered, the same card comes back: a new elicit that names the one it
    // resumes, with the same question and options.
    bankAgain = await nextCard(bank.elicitId);
    expect(bankAgain).toMatchObject({
      type: 'choose',
      message: bank.message,
      payload: bank.payload,
      resumes: bank.elicitId,
    });
    expect(bankAgain.elicitId).not.toBe(bank.elicitId);

    // The words stay where the person typed them, on HEAD's path; the answer to them follows, and
    // the card after it.
    const nodes = await path(api, token, c.id);
    const at = nodes.findIndex((n) => n.id === typed.id);
    expect(at).toBeGreaterThan(0);
    const after = nodes.slice(at + 1);
    const answered = after.findIndex((n) => n.kind === 'assistant' && n.payload['purpose'] === undefined);
    expect(after[answered]?.payload['text']).toBe(
      `(offline) Tier 2 means I keep a note of such mail but do not show it to you: on this card, “${LABELS.B}”. Here is the card again: tap an option or type its letter.`,
    );
    const askedAgain = after.findIndex(
      (n) => n.kind === 'elicit' && n.payload['elicitId'] === bankAgain.elicitId,
    );
    expect(askedAgain).toBeGreaterThan(answered);
    // The question decided nothing: the bank's notice waits on its card.
    const { mode, review } = await state();
    expect(mode).toBe('interview');
    expect(review).toMatchObject({ done: 4, total: 5 });
    expect(review?.items.find((i) => i.id === BANK.id)?.decision).toBeNull();

    // A letter typed at the card that came back decides the group: here a slip, b for c.
    const mistyped = await type('b');
    expect(mistyped).toMatchObject({
      kind: 'response',
      payload: { elicitId: bankAgain.elicitId, action: 'other', content: { text: 'b' } },
      authorId: userId,
    });
    withdrawn.push({ what: 'the mistyped “b” for the bank', nodeId: mistyped.id });
    const done = await nextAsk(bankAgain.elicitId);
    expect(done.pendingElicit).toMatchObject({ type: 'chat', message: 'What shall we sort?' });
    expect(await state()).toMatchObject({
      mode: 'assistant',
      review: { done: 5, total: 5 },
      lastChoice: { optionId: 'B', label: LABELS.B, activityIds: [BANK.id] },
    });
    // The recap puts the bank's notice on the promotions' line: the person sees the slip.
    expect((await replies()).at(-1)).toContain(
      `- ${[PROMOS[0]!, BANK, PROMOS[1]!, PROMOS[2]!].map((p) => `“${p.title}” (${p.from})`).join(', ')}: ${LABELS.B}. Now processed, promotion, Tier 2.`,
    );
  }, 30_000);

  it('fixes the mistyped letter by going back to the card that came back: it waits again, and the new letter decides it', async () => {
    const before = await conversation(api, token, c.id);
    const asked: ElicitEvent = await elicits.next((e) => e.elicitId === bankAgain.elicitId);
    const rewound = await call<HeadMove>(api, 'POST', `/api/conversations/${c.id}/rewind`, {
      token,
      body: { to: asked.nodeId },
    });
    expect(rewound.status).toBe(200);
    expect(rewound.body).toMatchObject({
      head: asked.nodeId,
      reflog: { action: 'rewind', newHead: asked.nodeId, actorId: userId },
    });
    // The same card, waiting again as it was, with the question and its answer still above it.
    const again = await until(
      () => conversation(api, token, c.id),
      (now) => now.status === 'waiting' && now.pendingElicit?.elicitId === bankAgain.elicitId,
    );
    expect(again.pendingElicit).toEqual(bankAgain);
    expect(again.pendingElicit?.elicitId).not.toBe(before.pendingElicit?.elicitId);
    expect(await state()).toMatchObject({ mode: 'interview', review: { done: 4, total: 5 } });

    const fixed = await type('c');
    expect(fixed).toMatchObject({
      kind: 'response',
      payload: { elicitId: bankAgain.elicitId, action: 'other', content: { text: 'c' } },
      authorId: userId,
    });
    kept.push({ what: 'the letter “c” typed again for the bank', nodeId: fixed.id });

    const done = await nextAsk(bankAgain.elicitId);
    expect(done.pendingElicit).toMatchObject({ type: 'chat', message: 'What shall we sort?' });
    // The old branch is still in the tree, off HEAD's path.
    const mistyped = withdrawn.find((w) => w.what === 'the mistyped “b” for the bank')!;
    const old = await call<NodeResponse>(api, 'GET', `/api/conversations/${c.id}/nodes/${mistyped.nodeId}`, {
      token,
    });
    expect(old.status).toBe(200);
    expect((await path(api, token, c.id)).map((n) => n.id)).not.toContain(mistyped.nodeId);
  }, 30_000);

  it('ends with every decision in the state and a last reply that recaps each change', async () => {
    const finalState = await state();
    expect(finalState).toMatchObject({
      mode: 'assistant',
      review: {
        items: reviewed({
          'mail-101': DECISIONS.B,
          'mail-102': DECISIONS.B,
          'mail-103': DECISIONS.B,
          'mail-104': DECISIONS.C,
          'mail-105': DECISIONS.A,
        }),
        done: 5,
        total: 5,
      },
    });
    expect((await replies()).at(-1)).toBe(
      [
        '(offline) The review is over. 5 of 5 items decided:',
        `- ${PROMOS.map((p) => `“${p.title}” (${p.from})`).join(', ')}: ${LABELS.B}. Now processed, promotion, Tier 2.`,
        `- “${BANK.title}” (${BANK.from}): ${LABELS.C}. Now surfaced, service-update, Tier 3.`,
        `- “${NEWSLETTER.title}” (${NEWSLETTER.from}): ${LABELS.A}. Now archived, newsletter, Tier 1.`,
      ].join('\n'),
    );
  }, 30_000);

  it('keeps every answer the person stands by on HEAD’s path; what they took back stays in the tree', async () => {
    const nodes = await path(api, token, c.id);
    const tree = await wholeTree();
    for (const answer of kept) {
      expect({ answer: answer.what, kept: keptOnPath(nodes, tree, answer.nodeId) }).toEqual({
        answer: answer.what,
        kept: true,
      });
    }
    const onPath = new Set(nodes.map((n) => n.id));
    for (const answer of withdrawn) {
      expect({
        answer: answer.what,
        onPath: onPath.has(answer.nodeId),
        inTree: tree.has(answer.nodeId),
      }).toEqual({
        answer: answer.what,
        onPath: false,
        inTree: true,
      });
    }
  }, 30_000);

  it('never lets the concierge move HEAD backwards: each of its reflog entries appends forward', async () => {
    const entries = await wholeReflog();
    const tree = await wholeTree();
    const agents = entries.filter((e) => e.actorId === 'agent:concierge');
    expect(agents.length).toBeGreaterThan(0);
    expect([...new Set(agents.map((e) => e.action))]).toEqual(['append']);
    for (const entry of agents) {
      // Forward: from a node to one of its descendants, never to itself, an ancestor or a sibling.
      const forward =
        entry.oldHead !== null &&
        entry.newHead !== entry.oldHead &&
        descends(tree, entry.newHead, entry.oldHead);
      expect({ entry: entry.index, forward }).toEqual({
        entry: entry.index,
        forward: true,
      });
    }
    // The person's own moves are theirs: the two rewinds (each after halting what ran).
    expect(entries.filter((e) => e.action === 'rewind' || e.action === 'edit').map((e) => e.actorId)).toEqual(
      [userId, userId],
    );
  }, 30_000);

  it('left the activities as the recap says: a new review finds nothing quarantined', async () => {
    // The api has no read of the activities themselves; another conversation of the same owner
    // reads the same store, so a new review shows what is still quarantined there.
    const fresh = await createConversation(api, token, { agent: 'concierge' });
    const res = await call<NodeAndHead>(api, 'POST', `/api/conversations/${fresh.id}/messages`, {
      token,
      body: { text: 'review my quarantined items' },
    });
    expect(res.status).toBe(201);
    await until(
      () => conversation(api, token, fresh.id),
      (now) =>
        now.status === 'waiting' &&
        now.pendingElicit?.type === 'chat' &&
        now.pendingElicit.elicitId !== fresh.pendingElicit?.elicitId,
    );
    const said = (await path(api, token, fresh.id))
      .filter((n) => n.kind === 'assistant')
      .map((n) => String(n.payload['text']));
    expect(said).toContain('(offline) Nothing is waiting in quarantine.');
    const read = await call<StateResponse<ConciergeState>>(
      api,
      'GET',
      `/api/conversations/${fresh.id}/state`,
      {
        token,
      },
    );
    expect(read.body.state).toMatchObject({ mode: 'assistant', review: { items: [], done: 0, total: 0 } });
  }, 30_000);

  // ---- the whole tree and reflog, page by page ----

  async function wholeTree(): Promise<Map<string, TreeListingNode>> {
    const nodes = new Map<string, TreeListingNode>();
    let after: string | null = null;
    do {
      const query: string = after ? `?limit=500&after=${encodeURIComponent(after)}` : '?limit=500';
      const page = await call<TreePage>(api, 'GET', `/api/conversations/${c.id}/tree${query}`, { token });
      expect(page.status).toBe(200);
      for (const node of page.body.nodes) nodes.set(node.id, node);
      after = page.body.next;
    } while (after !== null);
    return nodes;
  }

  async function wholeReflog(): Promise<ReflogEntry[]> {
    const entries: ReflogEntry[] = [];
    let before: string | null = null;
    do {
      const query: string = before ? `?limit=500&before=${encodeURIComponent(before)}` : '?limit=500';
      const page = await call<ReflogPage>(api, 'GET', `/api/conversations/${c.id}/reflog${query}`, { token });
      expect(page.status).toBe(200);
      entries.push(...page.body.entries);
      before = page.body.next;
    } while (before !== null);
    return entries;
  }
});

/** Whether `ancestor` is `node` or lies on the way from the root to it. */
function descends(tree: Map<string, TreeNode>, node: string, ancestor: string): boolean {
  for (let at: string | null = node; at !== null; at = tree.get(at)?.parentId ?? null) {
    if (at === ancestor) return true;
  }
  return false;
}

/** On the path, or inside the stretch a summary on the path stands for. */
function keptOnPath(nodes: readonly TreeNode[], tree: Map<string, TreeNode>, id: string): boolean {
  if (nodes.some((n) => n.id === id)) return true;
  return nodes.some((n) => {
    if (n.kind !== 'summary') return false;
    const { fromId, toId } = (n.payload as { covers: { fromId: string; toId: string } }).covers;
    return descends(tree, toId, id) && descends(tree, id, fromId);
  });
}
