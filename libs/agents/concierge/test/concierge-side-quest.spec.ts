import type { ElicitRequest } from '@sweatpants/domain';
import { pairToolUses, INTERPRET_TOOL, type ModelMessage } from '@sweatpants/agent-runtime';
import {
  readBody,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeStep,
} from '@sweatpants/agent-claude/testing';
import {
  answer,
  callsOf,
  claudeAt,
  closeConcierges,
  nextQuestion,
  offlineModel,
  openConcierge,
  replies,
} from './concierge-harness';

afterEach(closeConcierges);

const CARD_AGAIN = 'Here is the card again: tap an option or type its letter.';

/** The first card the offline concierge asks for `text`: the bank's alone, or a review's first group. */
async function firstCard(text = 'help with quarantined item mail-104') {
  const concierge = await openConcierge(offlineModel());
  await concierge.runner.send({ text, authorId: 'u1' });
  const card = await nextQuestion(concierge.runner);
  if (!card) throw new Error('the concierge asked nothing');
  expect(card.type).toBe('choose');
  return { ...concierge, card };
}
const bankCard = () => firstCard();
/** The review's first card: Trailgear's two mails and Bookbarn's. */
const trailgearCard = () => firstCard('review my quarantined items');

/** Types `text` while `card` waits; returns the card asked again after the side quest. */
async function aside(concierge: Awaited<ReturnType<typeof bankCard>>, card: ElicitRequest, text: string) {
  await answer(concierge.runner, { action: 'other', content: { text } }, card);
  const again = await nextQuestion(concierge.runner, card);
  expect(again).toMatchObject({ type: 'choose', payload: card.payload, resumes: card.elicitId });
  if (!again) throw new Error('the card was not asked again');
  return again;
}

describe('a side quest while a card waits (offline)', () => {
  it('explains an option asked about by its letter, and the card comes back', async () => {
    const concierge = await bankCard();
    await aside(concierge, concierge.card, 'what does C mean?');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) “C. Important update from a service you use → Tier 3 (review)”: If mail from Northbank can change something for you, I show it to you every time. ${CARD_AGAIN}`,
    );
  });

  it('answers the same card after several questions, each time asked again', async () => {
    const concierge = await bankCard();
    const second = await aside(concierge, concierge.card, 'hmm, who is Northbank?');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) I cannot answer that offline; I can say what an option or a tier means (“what does tier 2 mean?”). ${CARD_AGAIN}`,
    );
    const third = await aside(concierge, second, 'and what about tier 1 and tier 3?');
    expect(third.resumes).toBe(second.elicitId);
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) Tier 1 means I archive such mail on my own, without asking you: on this card, “A. Newsletter from a marketing list → Tier 1 (auto-archive)”. Tier 3 means I show such mail to you every time, for you to review: on this card, “C. Important update from a service you use → Tier 3 (review)”. ${CARD_AGAIN}`,
    );

    await answer(concierge.runner, { action: 'other', content: { text: 'C' } }, third);
    await concierge.runner.whenIdle();
    expect(concierge.store.batches).toEqual([
      { ids: ['mail-104'], updates: expect.objectContaining({ status: 'surfaced' }) },
    ]);
    const nodes = await concierge.path();
    // The side quests offered no card, applied nothing and did not read the items again.
    expect(callsOf(nodes, 'present_options')).toHaveLength(1);
    expect(callsOf(nodes, 'query_activities')).toHaveLength(1);
    expect(callsOf(nodes, 'update_activities')).toHaveLength(1);
    expect(concierge.runner.state()).toMatchObject({ mode: 'assistant', review: { done: 1, total: 1 } });
  });

  it('tells what it reads offline to words that ask nothing, and the card comes back', async () => {
    const concierge = await bankCard();
    await aside(concierge, concierge.card, 'ok let us look at them');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) Offline I read a pick here (an option, or its letter), or a question about the card (“what does tier 2 mean?”). ${CARD_AGAIN}`,
    );
    expect(concierge.store.batches).toEqual([]);
  });

  it.each([
    "ugh I'm tired, can you just deal with the rest however you think?",
    'you decide',
    "whatever you think, it's up to you",
  ])(
    'decides nothing when handed the rest (%j): it offers to stop with the rest quarantined, and the card comes back',
    async (text) => {
      const concierge = await trailgearCard();
      await aside(concierge, concierge.card, text);
      expect(replies(await concierge.path()).at(-1)).toBe(
        `(offline) I only apply what you pick, so I will not decide these for you. We can stop here: say “I’m done”, and what is not decided stays quarantined for next time. Or, to go on: ${CARD_AGAIN}`,
      );
      expect(concierge.store.batches).toEqual([]);
    },
  );

  it.each([
    "oops, the points one shouldn't have been archived. can you undo that?",
    'I changed my mind about the last one',
    'I tapped the wrong one before',
    'what happens if I pick the wrong one?',
  ])(
    'says how a pick made before this card is taken back (%j): a rewind to before it; it changes nothing, and the card comes back',
    async (text) => {
      const concierge = await trailgearCard();
      await aside(concierge, concierge.card, text);
      expect(replies(await concierge.path()).at(-1)).toBe(
        `(offline) To take a pick back, rewind to before it: open ⋯ on the message that picked it and choose “Rewind to here”. Its mail waits to be reviewed again, and the pick is not lost: the reflog keeps it, to recover. ${CARD_AGAIN}`,
      );
      expect(concierge.store.batches).toEqual([]);
    },
  );

  it.each([
    'never heard of them, no idea why I get that',
    "I don't know who that is",
    'I never signed up for this',
    'i dont remember signing up for that, what is it',
  ])(
    'points to the marketing list’s option when the sender is a stranger (%j), picks nothing, and the card comes back',
    async (text) => {
      const concierge = await bankCard();
      await aside(concierge, concierge.card, text);
      expect(replies(await concierge.path()).at(-1)).toBe(
        `(offline) Mail from a sender you never signed up for is most likely a marketing list: “A. Newsletter from a marketing list → Tier 1 (auto-archive)”. Type A to pick it. ${CARD_AGAIN}`,
      );
      expect(concierge.store.batches).toEqual([]);
    },
  );

  it.each(['i dont remember signing up for that, can you unsubscribe me?', 'make them stop emailing me'])(
    'says it cannot unsubscribe (%j), where the way off the list is, and which option archives their mail meanwhile; it picks nothing, and the card comes back',
    async (text) => {
      const concierge = await bankCard();
      await aside(concierge, concierge.card, text);
      expect(replies(await concierge.path()).at(-1)).toBe(
        '(offline) I cannot unsubscribe you: I only sort your quarantined mail. The way off a list is its unsubscribe link, usually at the foot of one of their emails. ' +
          `Meanwhile “A. Newsletter from a marketing list → Tier 1 (auto-archive)” archives their mail without asking you: type A to pick it. ${CARD_AGAIN}`,
      );
      expect(concierge.store.batches).toEqual([]);
    },
  );

  it.each([
    "I actually read that one every week, it's a newsletter I like",
    'I like reading those',
    "I actually like that one, I read it every week. keep it but don't bug me about it",
  ])(
    'points to the option that shows mail to them when they read it (%j), picks nothing, and the card comes back',
    async (text) => {
      const concierge = await bankCard();
      await aside(concierge, concierge.card, text);
      expect(replies(await concierge.path()).at(-1)).toBe(
        `(offline) Mail you read is best shown to you each time: “C. Important update from a service you use → Tier 3 (review)”. Type C to pick it. ${CARD_AGAIN}`,
      );
      expect(concierge.store.batches).toEqual([]);
    },
  );

  it('applies the kind said of one sender ("a shop I actually buy from") and says the stranger among them is most likely a marketing list, picking nothing for it', async () => {
    const concierge = await trailgearCard();
    await answer(
      concierge.runner,
      {
        action: 'other',
        content: { text: "trailgear is a shop I actually buy from, but bookbarn I've never heard of" },
      },
      concierge.card,
    );
    const rest = await nextQuestion(concierge.runner, concierge.card);

    expect(concierge.store.batches).toEqual([
      {
        ids: expect.arrayContaining([expect.any(String), expect.any(String)]),
        updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 2 }) }),
      },
    ]);
    expect(replies(await concierge.path())).toContain(
      '(offline) B for Trailgear, Trailgear Rewards: applying it. Bookbarn: mail from a sender you never signed up for is most likely a marketing list (A).',
    );
    // Bookbarn's item is asked on a card of its own.
    expect(rest).toMatchObject({
      type: 'choose',
      message: 'How should I read this item? Tap one, or type its letter.',
    });
  });

  it('applies a pick typed for some of a card’s senders to their items, and offers the card again for the rest', async () => {
    const concierge = await trailgearCard();
    const { card } = concierge;
    await answer(
      concierge.runner,
      { action: 'other', content: { text: 'B for the trailgear ones but bookbarn is just a newsletter' } },
      card,
    );
    const rest = await nextQuestion(concierge.runner, card);
    // A card of its own for what is left, not the same card asked again for all three.
    expect(rest).toMatchObject({
      type: 'choose',
      message: 'How should I read this item? Tap one, or type its letter.',
    });
    expect(rest?.resumes).toBeUndefined();
    const trailgear = concierge.store.batches[0]?.ids;
    expect(concierge.store.batches).toEqual([
      {
        ids: trailgear,
        updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 2 }) }),
      },
    ]);
    expect(trailgear).toHaveLength(2);
    const said = replies(await concierge.path());
    expect(said).toContain('(offline) B for Trailgear, Trailgear Rewards: applying it.');
    expect(said).toContain('(offline) Done: 2 updated.');
    expect(said.at(-1)).toMatch(
      /^\(offline\) Now the rest of that card\..*Next, one item on its own: “Picks for you this week” \(Bookbarn\)/,
    );

    if (!rest) throw new Error('the rest was not offered');
    await answer(concierge.runner, { action: 'other', content: { text: 'A' } }, rest);
    await nextQuestion(concierge.runner, rest);
    expect(concierge.store.batches).toHaveLength(2);
    expect(concierge.store.batches[1]?.updates).toMatchObject({ classification: { autonomyTier: 1 } });
  });

  it.each(["they're all junk", 'yeah just bin them all, none of it matters', 'delete them all'])(
    "takes %j, said of every item of the card, as the marketing list's reading for all of them",
    async (text) => {
      const concierge = await trailgearCard();
      await answer(concierge.runner, { action: 'other', content: { text } }, concierge.card);
      await nextQuestion(concierge.runner, concierge.card);

      expect(concierge.store.batches).toEqual([
        {
          ids: ['mail-101', 'mail-102', 'mail-103'],
          updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 1 }) }),
        },
      ]);
    },
  );

  it('takes what each sender is, said outright ("I buy from trailgear…, bookbarn is just spam"), as the option of that reading for its items', async () => {
    const concierge = await trailgearCard();
    await answer(
      concierge.runner,
      {
        action: 'other',
        content: { text: 'I buy from trailgear a lot so keep their stuff but bookbarn is just spam' },
      },
      concierge.card,
    );
    await nextQuestion(concierge.runner, concierge.card);

    expect(concierge.store.batches).toEqual([
      {
        ids: expect.arrayContaining([expect.any(String), expect.any(String)]),
        updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 2 }) }),
      },
      {
        ids: [expect.any(String)],
        updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 1 }) }),
      },
    ]);
    expect(replies(await concierge.path())).toContain(
      '(offline) B for Trailgear, Trailgear Rewards; A for Bookbarn: applying them.',
    );
  });

  it.each([
    'the points one matters to me, the others are just ads',
    'the one about points is important, the rest are ads',
    'the points one I actually care about, the other two are junk',
  ])(
    'takes an item named by its subject and "the others" (%j) as a pick each, for all of the card',
    async (text) => {
      const concierge = await trailgearCard();
      await answer(concierge.runner, { action: 'other', content: { text } }, concierge.card);
      await nextQuestion(concierge.runner, concierge.card);

      expect(concierge.store.batches).toEqual([
        {
          ids: [expect.any(String)],
          updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 3 }) }),
        },
        {
          ids: expect.arrayContaining([expect.any(String), expect.any(String)]),
          updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 1 }) }),
        },
      ]);
      const [points, others] = concierge.store.batches;
      expect(others?.ids).toHaveLength(2);
      expect(others?.ids).not.toContain(points?.ids[0]);
      expect(replies(await concierge.path())).toContain(
        '(offline) C for Trailgear Rewards; A for Trailgear, Bookbarn: applying them.',
      );
    },
  );

  it('takes "the shell sale and bookbarn are junk, but I actually use trailgear rewards" as a pick for each of the three', async () => {
    const concierge = await trailgearCard();
    await answer(
      concierge.runner,
      {
        action: 'other',
        content: { text: 'the shell sale and bookbarn are junk, but I actually use trailgear rewards' },
      },
      concierge.card,
    );
    await nextQuestion(concierge.runner, concierge.card);

    expect(concierge.store.batches).toEqual([
      {
        ids: [expect.any(String), expect.any(String)],
        updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 1 }) }),
      },
      {
        ids: [expect.any(String)],
        updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 2 }) }),
      },
    ]);
    expect(replies(await concierge.path())).toContain(
      '(offline) A for Trailgear, Bookbarn; B for Trailgear Rewards: applying them.',
    );
  });

  it.each(["that's my bank, definitely show me those", 'show me those', "it's from my bank"])(
    "takes %j at a card of one sender's mail as the reading said of it, for all of it",
    async (text) => {
      const concierge = await bankCard();
      await answer(concierge.runner, { action: 'other', content: { text } }, concierge.card);
      await nextQuestion(concierge.runner, concierge.card);

      expect(concierge.store.batches).toEqual([
        {
          ids: [expect.any(String)],
          updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 3 }) }),
        },
      ]);
      expect(replies(await concierge.path())).toContain('(offline) C for Northbank: applying it.');
    },
  );

  it('names no item by a word two subjects share, and takes "the others" alone as naming none', async () => {
    const concierge = await trailgearCard();
    await aside(concierge, concierge.card, 'the others are just ads');
    expect(concierge.store.batches).toEqual([]);
  });

  it('takes "same as before" at the next card as the reading picked last, for all of it', async () => {
    const concierge = await trailgearCard();
    await answer(concierge.runner, { action: 'accept', content: { choiceId: 'A' } }, concierge.card);
    const next = await nextQuestion(concierge.runner, concierge.card);
    if (!next) throw new Error('no second card');
    await answer(concierge.runner, { action: 'other', content: { text: 'same as before' } }, next);
    await nextQuestion(concierge.runner, next);

    expect(concierge.store.batches).toHaveLength(2);
    expect(concierge.store.batches[1]).toEqual({
      ids: expect.any(Array),
      updates: expect.objectContaining({ classification: expect.objectContaining({ autonomyTier: 1 }) }),
    });
    expect(replies(await concierge.path())).toContain('(offline) A again, as before: applying it.');
  });

  it('says there is nothing to go by for "same as before" at the first card, and the card comes back', async () => {
    const concierge = await trailgearCard();
    await aside(concierge, concierge.card, 'same as before');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) There is no earlier pick in this review to go by. ${CARD_AGAIN}`,
    );
    expect(concierge.store.batches).toEqual([]);
  });

  it('applies a letter per sender for every item of a card, and goes on to the next group', async () => {
    const concierge = await trailgearCard();
    const { card } = concierge;
    await answer(
      concierge.runner,
      { action: 'other', content: { text: 'B for Trailgear, A for Bookbarn' } },
      card,
    );
    const next = await nextQuestion(concierge.runner, card);
    expect(next?.resumes).toBeUndefined();
    expect(next?.message).not.toBe(card.message);
    expect(concierge.store.batches.map((b) => b.ids.length)).toEqual([2, 1]);
    const said = replies(await concierge.path());
    expect(said).toContain('(offline) B for Trailgear, Trailgear Rewards; A for Bookbarn: applying them.');
    expect(said.at(-1)).toMatch(/^\(offline\) That card is decided\./);
  });

  it('applies an option per sender named by its own words, not its letter', async () => {
    const concierge = await trailgearCard();
    const { card } = concierge;
    await answer(
      concierge.runner,
      { action: 'other', content: { text: 'archive the Trailgear ones, note Bookbarn' } },
      card,
    );
    await nextQuestion(concierge.runner, card);
    expect(concierge.store.batches.map((b) => [b.ids.length, b.updates.status])).toEqual([
      [2, 'archived'],
      [1, 'processed'],
    ]);
    expect(replies(await concierge.path())).toContain(
      '(offline) A for Trailgear, Trailgear Rewards; B for Bookbarn: applying them.',
    );
  });

  it('applies nothing to words that pick for part of a card but name no option, says so, and the card comes back', async () => {
    const concierge = await trailgearCard();
    const { card } = concierge;
    await aside({ ...concierge, card }, card, 'Trailgear sometimes but Bookbarn not really');
    expect(replies(await concierge.path()).at(-1)).toMatch(
      /^\(offline\) Offline I need a letter beside each sender/,
    );
    expect(concierge.store.batches).toEqual([]);
  });

  it.each(['next', "not sure, I'll decide that one later", 'come back to it'])(
    'sets the card aside on %j: its items stay quarantined and the review goes on',
    async (text) => {
      const concierge = await openConcierge(offlineModel());
      await concierge.runner.send({ text: 'review my quarantined items', authorId: 'u1' });
      const first = await nextQuestion(concierge.runner);
      if (!first) throw new Error('the concierge asked nothing');
      await answer(concierge.runner, { action: 'other', content: { text } }, first);
      const second = await nextQuestion(concierge.runner, first);
      // Another group's card, not the same one asked again.
      expect(second?.resumes).toBeUndefined();
      expect(second?.payload).not.toEqual(first.payload);
      const said = replies(await concierge.path());
      expect(said).toContain('(offline) All right, I leave that question.');
      expect(said.at(-1)).toMatch(/^\(offline\) No pick, so those stay quarantined for now\./);
      expect(concierge.store.batches).toEqual([]);
    },
  );

  it('"I\'m done" typed at the card sets it aside and ends the review: the card is not asked again', async () => {
    const concierge = await bankCard();
    await answer(concierge.runner, { action: 'other', content: { text: "I'm done" } }, concierge.card);
    await concierge.runner.whenIdle();
    // No card waits: the chat prompt does.
    expect(await nextQuestion(concierge.runner, concierge.card)).toBeUndefined();
    const path = await concierge.path();
    expect(replies(path).slice(-2)).toEqual([
      '(offline) We can stop here; what is not decided stays quarantined.',
      expect.stringMatching(/^\(offline\) The review is over\./),
    ]);
    // Asked once: never again after the words.
    expect(path.filter((n) => n.kind === 'elicit' && n.payload['type'] === 'choose')).toHaveLength(1);
    expect(concierge.runner.state()).toMatchObject({ mode: 'assistant', review: { done: 0, total: 1 } });
    expect(concierge.store.batches).toEqual([]);
  });

  it.each(['what did you just do?', 'how many are left?'])(
    'answers %j after the review from its recap: what it changed and what stays quarantined',
    async (text) => {
      const concierge = await bankCard();
      await answer(concierge.runner, { action: 'other', content: { text: "I'm done" } }, concierge.card);
      await concierge.runner.whenIdle();
      await concierge.runner.send({ text, authorId: 'u1' });
      await concierge.runner.whenIdle();
      const said = replies(await concierge.path()).at(-1) ?? '';
      expect(said).toBe(
        '(offline) In the last review: None of the 1 item was decided; it stays quarantined.',
      );
    },
  );

  it('"stop" asking about the card is answered about the card, and the card stays', async () => {
    const concierge = await bankCard();
    await aside(concierge, concierge.card, 'does tier 1 stop these mails?');
    expect(replies(await concierge.path()).at(-1)).toMatch(/^\(offline\) Tier 1 means I archive such mail/);
    expect(concierge.runner.state()).toMatchObject({ mode: 'interview' });
  });

  it('stops once the card is dismissed and the user says stop', async () => {
    const concierge = await bankCard();
    await answer(concierge.runner, { action: 'cancel' }, concierge.card);
    expect(await nextQuestion(concierge.runner)).toBeUndefined();
    await concierge.runner.send({ text: 'stop', authorId: 'u1' });
    await concierge.runner.whenIdle();
    expect(concierge.runner.state()).toMatchObject({ mode: 'assistant', review: { done: 0, total: 1 } });
    expect(concierge.store.batches).toEqual([]);
  });
});

describe('a side quest on Claude', () => {
  let fake: FakeAnthropic;
  beforeEach(async () => {
    fake = await startFakeAnthropic();
  });
  afterEach(async () => {
    await fake.close();
  });

  const options = [
    { id: 'A', label: 'Newsletter → Tier 1', reason: 'Bulk.', updates: { status: 'archived' } },
    {
      id: 'C',
      label: 'Important update → Tier 3',
      reason: 'It may matter.',
      updates: { status: 'surfaced' },
    },
  ];
  const card = {
    activity_ids: ['mail-104'],
    message: 'How should I read the bank notice?',
    options,
  };
  const toTheCard = [
    { kind: 'reply', content: [{ type: 'tool_use', name: 'start_review', input: {} }] },
    { kind: 'reply', content: [{ type: 'tool_use', name: 'query_activities', input: {} }] },
    { kind: 'reply', content: [{ type: 'tool_use', name: 'present_options', input: card }] },
    { kind: 'reply', content: [{ type: 'tool_use', name: INTERPRET_TOOL, input: { answers: false } }] },
  ] satisfies FakeStep[];

  it('refuses a new card while the card is open, and the card still comes back', async () => {
    fake.script(
      ...toTheCard,
      { kind: 'reply', content: [{ type: 'tool_use', name: 'present_options', input: card }] },
      { kind: 'reply', content: [{ type: 'text', text: 'Northbank is your bank.' }] },
    );
    const { runner, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'other', content: { text: 'who is Northbank, again?' } }, asked!);
    const again = await nextQuestion(runner, asked);
    expect(again).toMatchObject({ message: card.message, resumes: asked?.elicitId });

    const results = (await path()).filter((n) => n.kind === 'tool_result').slice(-1);
    expect(results.map((n) => n.payload['outcome'])).toEqual([
      expect.objectContaining({
        kind: 'error',
        message: expect.stringContaining(
          'present_options: the card "How should I read the bank notice?" is still open',
        ),
      }),
    ]);
    expect(replies(await path()).at(-1)).toBe('Northbank is your bank.');
    expect(runner.state()).toMatchObject({ mode: 'interview' });
  });

  it('applies a pick for some of the card’s senders in the side quest, then its call offers what is left', async () => {
    const promo = { status: 'processed', classification: { autonomy_tier: 2 } };
    const three = {
      activity_ids: ['mail-101', 'mail-102', 'mail-103'],
      message: 'How should I read these 3 items?',
      options: [
        { id: 'A', label: 'Newsletter → Tier 1', reason: 'Bulk.', updates: { status: 'archived' } },
        { id: 'B', label: 'Promo from a shop you use → Tier 2', reason: 'You buy there.', updates: promo },
      ],
    };
    fake.script(
      { kind: 'reply', content: [{ type: 'tool_use', name: 'start_review', input: {} }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: 'query_activities', input: {} }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: 'present_options', input: three }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: INTERPRET_TOOL, input: { answers: false } }] },
      // In the side quest: an item that is not on the card is refused, the card's are applied.
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'update_activities',
            input: { activity_ids: ['mail-101', 'mail-105'], updates: promo },
          },
        ],
      },
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'update_activities',
            input: { activity_ids: ['mail-101', 'mail-102'], updates: promo },
          },
        ],
      },
      { kind: 'reply', content: [{ type: 'text', text: 'B for the Trailgear mail. Bookbarn next.' }] },
      // Back in the card's turn: its call says what is left, and the model offers that.
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'present_options',
            input: { ...three, activity_ids: ['mail-103'], message: 'And the Bookbarn mail?' },
          },
        ],
      },
    );
    const { runner, path, store } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(
      runner,
      { action: 'other', content: { text: 'B for the Trailgear ones, Bookbarn I am not sure' } },
      asked!,
    );
    const rest = await nextQuestion(runner, asked);
    expect(rest).toMatchObject({ message: 'And the Bookbarn mail?' });
    expect(rest?.resumes).toBeUndefined();
    expect(store.batches.map((b) => b.ids)).toEqual([['mail-101', 'mail-102']]);

    const results = (await path()).filter((n) => n.kind === 'tool_result').map((n) => n.payload['outcome']);
    expect(results).toContainEqual(
      expect.objectContaining({
        kind: 'error',
        message: expect.stringContaining('update_activities: mail-105 is not on the open card'),
      }),
    );
    expect(results).toContainEqual(
      expect.objectContaining({
        kind: 'success',
        value: expect.objectContaining({
          applied_in_words: ['mail-101', 'mail-102'],
          remaining_ids: ['mail-103'],
        }),
      }),
    );
    // The side quest's model was told the card's items and what each option applies.
    const sideQuest = readBody(fake.requests[4]!);
    expect(JSON.stringify(sideQuest.system)).toContain(
      'Its items and options: {\\"activity_ids\\":[\\"mail-101\\"',
    );
  });

  it('ends the review from the side quest when the user stops there: the card is set aside, not asked again', async () => {
    fake.script(
      ...toTheCard,
      {
        kind: 'reply',
        content: [
          { type: 'tool_use', name: 'finish_review', input: { summary: 'The user stopped.' } },
          // refused in a side quest, after the call that set the card aside
          { type: 'tool_use', name: 'present_options', input: card },
        ],
      },
      { kind: 'reply', content: [{ type: 'text', text: 'Fine, we stop here.' }] },
      {
        kind: 'reply',
        content: [{ type: 'text', text: 'The review is over; the bank notice stays quarantined.' }],
      },
    );
    const { runner, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'other', content: { text: "that's enough for today" } }, asked!);
    expect(await nextQuestion(runner, asked)).toBeUndefined();

    const nodes = await path();
    expect(replies(nodes).slice(-2)).toEqual([
      'Fine, we stop here.',
      'The review is over; the bank notice stays quarantined.',
    ]);
    // The side quest's call set the card aside; the card's own tool ended the review.
    const results = nodes.filter((n) => n.kind === 'tool_result');
    expect(results.map((n) => [n.payload['name'], (n.payload['outcome'] as { kind: string }).kind])).toEqual([
      ['start_review', 'break'],
      ['query_activities', 'success'],
      ['finish_review', 'success'],
      ['present_options', 'error'],
      ['present_options', 'break'],
    ]);
    // The model was told, in the side quest, what its call did.
    const told = fake.requests.at(-2)?.body?.messages.at(-1)?.content;
    expect(JSON.stringify(told)).toContain('The open card is set aside');
    expect(nodes.filter((n) => n.kind === 'elicit' && n.payload['type'] === 'choose')).toHaveLength(1);
    expect(runner.state()).toMatchObject({ mode: 'assistant', review: { done: 0 } });
  });
});

describe('pairToolUses', () => {
  const text = (t: string) => ({ type: 'text' as const, text: t });
  const use = (id: string) => ({ type: 'tool_use' as const, id, name: 'present_options', input: {} });
  const result = (id: string) => ({ type: 'tool_result' as const, toolUseId: id, content: '{}' });

  it('moves a card’s call to the reply after which it was asked again', () => {
    const history: ModelMessage[] = [
      { role: 'user', content: [text('review')] },
      { role: 'assistant', content: [text('Three offers.'), use('t1')] },
      { role: 'user', content: [text('what does tier 2 mean?')] },
      { role: 'assistant', content: [text('Tier 2 means…')] },
      { role: 'user', content: [result('t1')] },
    ];
    expect(pairToolUses(history)).toEqual([
      { role: 'user', content: [text('review')] },
      { role: 'assistant', content: [text('Three offers.')] },
      { role: 'user', content: [text('what does tier 2 mean?')] },
      { role: 'assistant', content: [text('Tier 2 means…'), use('t1')] },
      { role: 'user', content: [result('t1')] },
    ]);
  });

  it('merges the turns around a message left empty, and leaves a paired history as it is', () => {
    const history: ModelMessage[] = [
      { role: 'user', content: [text('review')] },
      { role: 'assistant', content: [use('t1')] },
      { role: 'user', content: [text('hm?')] },
      { role: 'assistant', content: [text('Sure.')] },
      { role: 'user', content: [result('t1'), text('b')] },
    ];
    const paired = pairToolUses(history);
    expect(paired).toEqual([
      { role: 'user', content: [text('review'), text('hm?')] },
      { role: 'assistant', content: [text('Sure.'), use('t1')] },
      { role: 'user', content: [result('t1'), text('b')] },
    ]);
    expect(pairToolUses(paired)).toEqual(paired);
  });
});
