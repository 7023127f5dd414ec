import type { ElicitRequest } from '@sweatpants/domain';
import { pairToolUses, INTERPRET_TOOL, type ModelMessage } from '@sweatpants/agent-runtime';
import { startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
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

  it('says how to move on from the card to "next", and what it reads offline to words that ask nothing', async () => {
    const concierge = await bankCard();
    const second = await aside(concierge, concierge.card, 'next');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) To leave this card for now, tap “Skip this”: what it asks about stays quarantined. ${CARD_AGAIN}`,
    );
    await aside(concierge, second, 'ok let us look at them');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) Offline I read a pick here (an option, or its letter), or a question about the card (“what does tier 2 mean?”). ${CARD_AGAIN}`,
    );
    expect(concierge.store.batches).toEqual([]);
  });

  it('keeps the card open on "stop", says how to stop, and stops once the card is dismissed', async () => {
    const concierge = await bankCard();
    const again = await aside(concierge, concierge.card, 'stop');
    expect(replies(await concierge.path()).at(-1)).toBe(
      `(offline) This card stays open until you pick an option or dismiss it; then say stop, and what is not decided stays quarantined. ${CARD_AGAIN}`,
    );
    expect(concierge.runner.state()).toMatchObject({ mode: 'interview' });

    await answer(concierge.runner, { action: 'cancel' }, again);
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

  it('refuses a new card or the end of the review while the card is open, and the card still comes back', async () => {
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
    fake.script(
      { kind: 'reply', content: [{ type: 'tool_use', name: 'start_review', input: {} }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: 'query_activities', input: {} }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: 'present_options', input: card }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: INTERPRET_TOOL, input: { answers: false } }] },
      {
        kind: 'reply',
        content: [
          { type: 'tool_use', name: 'present_options', input: card },
          { type: 'tool_use', name: 'finish_review', input: { summary: 'Stopped.' } },
        ],
      },
      { kind: 'reply', content: [{ type: 'text', text: 'Northbank is your bank.' }] },
    );
    const { runner, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'other', content: { text: 'who is Northbank, again?' } }, asked!);
    const again = await nextQuestion(runner, asked);
    expect(again).toMatchObject({ message: card.message, resumes: asked?.elicitId });

    const results = (await path()).filter((n) => n.kind === 'tool_result').slice(-2);
    expect(results.map((n) => n.payload['outcome'])).toEqual([
      expect.objectContaining({
        kind: 'error',
        message: expect.stringContaining(
          'present_options: the card "How should I read the bank notice?" is still open',
        ),
      }),
      expect.objectContaining({
        kind: 'error',
        message: expect.stringContaining(
          'finish_review: the card "How should I read the bank notice?" is still open',
        ),
      }),
    ]);
    expect(replies(await path()).at(-1)).toBe('Northbank is your bank.');
    expect(runner.state()).toMatchObject({ mode: 'interview' });
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
