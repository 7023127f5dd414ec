import type { ElicitRequest } from '@sweatpants/domain';
import { pairToolUses, INTERPRET_TOOL, type ModelMessage } from '@sweatpants/agent-runtime';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '@sweatpants/agent-claude/testing';
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

/** The bank's card, on its own, on the offline model. */
async function bankCard() {
  const concierge = await openConcierge(offlineModel());
  await concierge.runner.send({ text: 'help with quarantined item mail-104', authorId: 'u1' });
  const card = await nextQuestion(concierge.runner);
  if (!card) throw new Error('the concierge asked nothing');
  expect(card.type).toBe('choose');
  return { ...concierge, card };
}

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

  it('applies nothing to a card picked for only some of its items, says so, and the card comes back', async () => {
    const concierge = await openConcierge(offlineModel());
    await concierge.runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const card = await nextQuestion(concierge.runner);
    if (!card) throw new Error('the concierge asked nothing');
    await aside({ ...concierge, card }, card, 'B for the trailgear ones but bookbarn is just a newsletter');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) Offline I apply one option to every item on a card, so I have applied none yet. Pick the one that fits them best, or “Skip this” to leave them all quarantined for now. ${CARD_AGAIN}`,
    );
    expect(concierge.store.batches).toEqual([]);
  });

  it('sets the card aside on "next": its items stay quarantined and the review goes on', async () => {
    const concierge = await openConcierge(offlineModel());
    await concierge.runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const first = await nextQuestion(concierge.runner);
    if (!first) throw new Error('the concierge asked nothing');
    await answer(concierge.runner, { action: 'other', content: { text: 'next' } }, first);
    const second = await nextQuestion(concierge.runner, first);
    // Another group's card, not the same one asked again.
    expect(second?.resumes).toBeUndefined();
    expect(second?.payload).not.toEqual(first.payload);
    const said = replies(await concierge.path());
    expect(said).toContain('(offline) All right, I leave that question.');
    expect(said.at(-1)).toMatch(/^\(offline\) No pick, so those stay quarantined for now\./);
    expect(concierge.store.batches).toEqual([]);
  });

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
