import type { ConciergeState, Json, ReviewDecision } from '@sweatpants/domain';
import { INTERPRET_TOOL } from '@sweatpants/agent-runtime';
import {
  readBody,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeStep,
  type ReadBody,
} from '@sweatpants/agent-claude/testing';

import { OPEN_CARD_LINE } from '../src';
import {
  answer,
  callsOf,
  claudeAt,
  closeConcierges,
  nextQuestion,
  openConcierge,
  replies,
} from './concierge-harness';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await closeConcierges();
  await fake.close();
});

const PROMOS = ['mail-101', 'mail-102', 'mail-103'];
const B_UPDATES = {
  status: 'processed',
  classification: {
    activity_type: 'promotion',
    autonomy_tier: 2,
    confidence: 0.95,
    reasoning: 'Vendor promos',
  },
};

/** What Claude does in the interview, up to the question. */
const untilTheQuestion = (): FakeStep[] => [
  { kind: 'reply', content: [{ type: 'tool_use', name: 'start_review', input: {} }] },
  {
    kind: 'reply',
    content: [{ type: 'tool_use', name: 'query_activities', input: { status: 'quarantined' } }],
  },
  {
    kind: 'reply',
    content: [
      { type: 'text', text: 'Three of these are offers from shops.' },
      {
        type: 'tool_use',
        name: 'present_options',
        input: {
          activity_ids: PROMOS,
          message: 'How should I read these three?',
          options: [
            {
              id: 'A',
              label: 'Newsletter → Tier 1 (auto-archive)',
              reason: 'Bulk mail you never act on.',
              updates: { status: 'archived', classification: { autonomy_tier: 1 } },
            },
            {
              id: 'B',
              label: "Promo from a vendor you've bought from → Tier 2",
              reason: 'You ordered from Trailgear and Bookbarn.',
              updates: B_UPDATES,
            },
            {
              id: 'C',
              label: 'Important update → Tier 3 (review)',
              reason: 'Points expiring might matter.',
              updates: { status: 'surfaced', classification: { autonomy_tier: 3 } },
            },
          ],
        },
      },
    ],
  },
];

/** What Claude does once the user picked B. */
const afterThePick = (): FakeStep[] => [
  {
    kind: 'reply',
    content: [
      { type: 'tool_use', name: 'update_activities', input: { activity_ids: PROMOS, updates: B_UPDATES } },
    ],
  },
  { kind: 'reply', content: [{ type: 'text', text: 'Done: all three are noted as vendor promos, Tier 2.' }] },
];

/** Claude's reading of words typed while the card waits (the runtime's side call). */
const reading = (input: { answers: boolean; content?: { [key: string]: Json } }): FakeStep => ({
  kind: 'reply',
  content: [{ type: 'tool_use', name: INTERPRET_TOOL, input }],
});

/** Each request as the model reads it: instructions (system prompt and notes) and conversation. */
const bodies = () => fake.requests.map(readBody);
const lastToolResult = (body: ReadBody | undefined) =>
  body?.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result')
    .at(-1);

describe('the quarantine interview on Claude (the real SDK against the fake server)', () => {
  it('offers options with reasons, applies the tapped one in ONE batch update, and confirms', async () => {
    fake.script(...untilTheQuestion(), ...afterThePick());
    const { runner, store, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });

    const asked = await nextQuestion(runner);
    expect(asked).toMatchObject({ type: 'choose', message: 'How should I read these three?' });
    expect(asked?.payload).toEqual({
      options: [
        {
          id: 'A',
          label: 'A. Newsletter → Tier 1 (auto-archive)',
          description: 'Bulk mail you never act on.',
        },
        expect.objectContaining({ id: 'B', description: 'You ordered from Trailgear and Bookbarn.' }),
        expect.objectContaining({ id: 'C' }),
      ],
    });
    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, asked!);
    await runner.whenIdle();

    expect(store.batches).toHaveLength(1);
    expect(store.batches[0]?.ids).toEqual(PROMOS);
    for (const id of PROMOS) {
      expect(store.get(id)).toMatchObject({
        status: 'processed',
        classification: {
          activityType: 'promotion',
          autonomyTier: 2,
          confidence: 0.95,
          reasoning: 'Vendor promos',
        },
      });
    }
    expect(store.get('mail-104')?.status).toBe('quarantined');

    const [overview, interview] = bodies();
    expect(overview?.tools?.map((t) => t.name)).toContain('start_review');
    expect(interview?.system).toContain('interviewing the user about quarantined activities');
    expect(interview?.tools?.map((t) => t.name)).toEqual([
      'query_activities',
      'query_people',
      'present_options',
      'update_activities',
      'finish_review',
      'respond',
    ]);
    expect(JSON.parse(lastToolResult(bodies()[3])?.content ?? '{}')).toMatchObject({
      choice: 'B',
      activity_ids: PROMOS,
    });
    const nodes = await path();
    expect(callsOf(nodes, 'update_activities')).toHaveLength(1);
    expect(replies(nodes).at(-1)).toBe('Done: all three are noted as vendor promos, Tier 2.');
    expect(runner.state()).toMatchObject<Partial<ConciergeState>>({
      mode: 'interview',
      reviewing: [],
      lastChoice: {
        optionId: 'B',
        label: "B. Promo from a vendor you've bought from → Tier 2",
        activityIds: PROMOS,
      },
      updated: 3,
    });
    // What a client shows: 3 of the 5 quarantined items decided, each with what was applied.
    const decided: ReviewDecision = {
      optionId: 'B',
      label: "B. Promo from a vendor you've bought from → Tier 2",
      status: 'processed',
      activityType: 'promotion',
      autonomyTier: 2,
    };
    expect(runner.state()).toMatchObject<Partial<ConciergeState>>({
      review: {
        items: [
          { id: 'mail-101', title: '20% off rain shells this weekend', from: 'Trailgear', decision: decided },
          { id: 'mail-104', title: 'Changes to your account terms', from: 'Northbank', decision: null },
          {
            id: 'mail-102',
            title: 'Your points expire in 30 days',
            from: 'Trailgear Rewards',
            decision: decided,
          },
          { id: 'mail-103', title: 'Picks for you this week', from: 'Bookbarn', decision: decided },
          { id: 'mail-105', title: 'Issue 112: winter greens', from: 'The Weekly Sprout', decision: null },
        ],
        done: 3,
        total: 5,
        // This Claude gave no structured output, so the review learnt nothing.
        learnt: [],
      },
    });
  });

  it('understands "B for all of these" typed instead of a tap: Claude reads it as B, without a side quest', async () => {
    fake.script(
      ...untilTheQuestion(),
      reading({ answers: true, content: { choiceId: 'B' } }),
      ...afterThePick(),
    );
    const { runner, store, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'other', content: { text: 'B for all of these' } }, asked!);
    await runner.whenIdle();

    expect(fake.requests).toHaveLength(6);
    // The words go to Claude with the card as the user sees it, letters and all.
    const read = bodies()[3];
    expect(read?.tool_choice).toEqual({ type: 'tool', name: INTERPRET_TOOL });
    expect(read?.system).toContain("B. Promo from a vendor you've bought from → Tier 2");
    expect(read?.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'B for all of these' }] },
    ]);
    // The Messages API wants the tool result first in its user turn, the typed words after it.
    const turn = bodies()[4]?.messages.at(-1)?.content;
    expect(Array.isArray(turn) && turn.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(JSON.parse(lastToolResult(bodies()[4])?.content ?? '{}')).toMatchObject({
      choice: 'B',
      activity_ids: PROMOS,
    });
    expect(store.batches.map((b) => b.ids)).toEqual([PROMOS]);
    expect(store.get('mail-102')?.classification.autonomyTier).toBe(2);
    // Read as the answer: the card was asked once.
    expect((await path()).filter((n) => n.kind === 'elicit')).toHaveLength(1);
  });

  it('answers a question typed while the card waits, asks the same card again, and applies the pick', async () => {
    const question = 'wait, what does tier 2 mean?';
    const answerText = 'Tier 2 means I keep a note of their offers but do not show them to you.';
    fake.script(
      ...untilTheQuestion(),
      reading({ answers: false }),
      { kind: 'reply', content: [{ type: 'text', text: answerText }] },
      ...afterThePick(),
    );
    const { runner, store, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'other', content: { text: question } }, asked!);

    const again = await nextQuestion(runner, asked);
    expect(again).toMatchObject({
      type: 'choose',
      message: asked?.message,
      payload: asked?.payload,
      resumes: asked?.elicitId,
    });
    // The side quest's turn is told which card is open and to answer the words, not move on.
    const aside = bodies()[4];
    expect(aside?.system).toContain('interviewing the user about quarantined activities');
    expect(aside?.system).toContain('Do not call present_options');
    expect(aside?.system).toContain(`${OPEN_CARD_LINE}{"message":"How should I read these three?"`);
    expect(aside?.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: question }] });
    expect(replies(await path()).at(-1)).toBe(answerText);
    expect(store.batches).toEqual([]);

    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, again!);
    await runner.whenIdle();
    expect(store.batches.map((b) => b.ids)).toEqual([PROMOS]);
    // After the pick every call is right before its result, as the Messages API wants: the card's
    // call is where it was asked again, after the answer to the question.
    const after = bodies()[5];
    expect(after?.system).not.toContain(OPEN_CARD_LINE);
    const messages = after?.messages ?? [];
    const card = messages.findIndex(
      (m) =>
        Array.isArray(m.content) &&
        m.content.some((b) => b.type === 'tool_use' && b.name === 'present_options'),
    );
    expect(messages[card]?.content).toEqual([
      { type: 'text', text: answerText },
      expect.objectContaining({ type: 'tool_use', name: 'present_options' }),
    ]);
    const answered = messages[card + 1]?.content;
    expect(Array.isArray(answered) ? answered[0] : answered).toMatchObject({ type: 'tool_result' });
    expect(JSON.parse(lastToolResult(after)?.content ?? '{}')).toMatchObject({ choice: 'B' });
    expect(replies(await path()).at(-1)).toBe('Done: all three are noted as vendor promos, Tier 2.');
  });
});

describe('what the user sees on Claude', () => {
  it('ends with the recap: the model is handed every change, built from the state', async () => {
    const recapText = 'Three shop offers are now noted as promos (Tier 2); two items stay quarantined.';
    fake.script(
      ...untilTheQuestion(),
      afterThePick()[0]!,
      {
        kind: 'reply',
        content: [{ type: 'tool_use', name: 'finish_review', input: { summary: 'Promos decided.' } }],
      },
      { kind: 'reply', content: [{ type: 'text', text: recapText }] },
    );
    const { runner, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, (await nextQuestion(runner))!);
    await runner.whenIdle();

    const recap = [
      '3 of 5 items decided:',
      "- “20% off rain shells this weekend” (Trailgear), “Your points expire in 30 days” (Trailgear Rewards), “Picks for you this week” (Bookbarn): B. Promo from a vendor you've bought from → Tier 2. Now processed, promotion, Tier 2.",
      'Still quarantined: “Changes to your account terms” (Northbank), “Issue 112: winter greens” (The Weekly Sprout).',
    ].join('\n');
    const overview = bodies()[5];
    const said = overview?.messages.at(-1)?.content;
    expect(Array.isArray(said) && said.find((b) => b.type === 'text')).toMatchObject({
      text: `[Review finished] Promos decided.\n${recap}`,
    });
    expect(overview?.system).toContain('tell them every change it lists');
    expect(replies(await path()).at(-1)).toBe(recapText);
    expect(runner.state()).toMatchObject({ mode: 'assistant', review: { done: 3, total: 5 } });
  });

  it('letters the cards when the model named its options otherwise, and reads a typed letter', async () => {
    const [start, query] = untilTheQuestion();
    fake.script(
      start!,
      query!,
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'present_options',
            input: {
              activity_ids: ['mail-104'],
              message: 'Type A, B or C.',
              options: [
                {
                  id: 'keep',
                  label: 'Keep in inbox',
                  reason: 'It may need you.',
                  updates: { status: 'surfaced' },
                },
                { id: 'note', label: 'B) Note it', reason: 'Routine.', updates: { status: 'processed' } },
                { id: 'drop', label: 'Archive', reason: 'Never read.', updates: { status: 'archived' } },
              ],
            },
          },
        ],
      },
      reading({ answers: true, content: { choiceId: 'B' } }),
      { kind: 'reply', content: [{ type: 'text', text: 'Noted, not shown.' }] },
    );
    const { runner } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    expect(asked?.payload).toMatchObject({
      options: [
        { id: 'keep', label: 'A. Keep in inbox' },
        { id: 'note', label: 'B. Note it' },
        { id: 'drop', label: 'C. Archive' },
      ],
    });
    await answer(runner, { action: 'other', content: { text: 'b please' } }, asked!);
    await runner.whenIdle();
    // Claude reads the words against the card as shown; a reading by the letter names the option too.
    expect(bodies()[3]?.system).toContain('"label":"B. Note it"');
    expect(JSON.parse(lastToolResult(bodies()[4])?.content ?? '{}')).toMatchObject({
      choice: 'note',
      label: 'B. Note it',
    });
  });
});
