import {
  ConciergeStateSchema,
  foldPath,
  type ConciergeReview,
  type ReviewDecision,
  type ReviewItem,
} from '@sweatpants/domain';
import { Runner, silentOutbox } from '@sweatpants/agent-runtime/host';

import { conciergeAgent, provideActivityStore } from '../src';
import {
  answer,
  closeConcierges,
  nextQuestion,
  offlineModel,
  openConcierge,
  replies,
} from './concierge-harness';

afterEach(closeConcierges);

const PROMOS: Omit<ReviewItem, 'decision'>[] = [
  { id: 'mail-101', title: '20% off rain shells this weekend', from: 'Trailgear' },
  { id: 'mail-102', title: 'Your points expire in 30 days', from: 'Trailgear Rewards' },
  { id: 'mail-103', title: 'Picks for you this week', from: 'Bookbarn' },
];
const NEWSLETTER = { id: 'mail-105', title: 'Issue 112: winter greens', from: 'The Weekly Sprout' };
const BANK = { id: 'mail-104', title: 'Changes to your account terms', from: 'Northbank' };

const A_NEWSLETTER: ReviewDecision = {
  optionId: 'A',
  label: 'A. Newsletter from a marketing list → Tier 1 (auto-archive)',
  status: 'archived',
  activityType: 'newsletter',
  autonomyTier: 1,
};
const C_UPDATE: ReviewDecision = {
  optionId: 'C',
  label: 'C. Important update from a service you use → Tier 3 (review)',
  status: 'surfaced',
  activityType: 'service-update',
  autonomyTier: 3,
};

/** The review as `GET .../state` serves it: the fold of the path up to `at` (default HEAD). */
const reviewOf = (path: Parameters<typeof foldPath>[1]) =>
  ConciergeStateSchema.pick({ review: true }).parse(foldPath(conciergeAgent.state, path)).review;

describe('the concierge shows its work (offline)', () => {
  it('shows "2 of 5" with each decision, and ends with a recap of every change', async () => {
    const { runner, path } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });

    const promotions = await nextQuestion(runner);
    // Five items read, none decided yet; the first card is on the table.
    expect(runner.state()).toMatchObject({ mode: 'interview', review: { done: 0, total: 5 } });
    await answer(runner, { action: 'decline' }, promotions!);

    const newsletter = await nextQuestion(runner, promotions);
    await answer(runner, { action: 'accept', content: { choiceId: 'A' } }, newsletter!);

    const bank = await nextQuestion(runner, newsletter);
    expect(runner.state()).toMatchObject({ review: { done: 1, total: 5 }, reviewing: ['mail-104'] });
    // The card says "C. Important update…", so typing the letter picks it.
    await answer(runner, { action: 'other', content: { text: 'C' } }, bank!);
    await runner.whenIdle();

    const nodes = await path();
    const review: ConciergeReview = {
      items: [
        { ...PROMOS[0]!, decision: null },
        { ...BANK, decision: C_UPDATE },
        { ...PROMOS[1]!, decision: null },
        { ...PROMOS[2]!, decision: null },
        { ...NEWSLETTER, decision: A_NEWSLETTER },
      ],
      done: 2,
      total: 5,
      // What the interview learnt from the two picks (its structured output), for the panel.
      learnt: [
        `${A_NEWSLETTER.label} for mail from The Weekly Sprout`,
        `${C_UPDATE.label} for mail from Northbank`,
      ],
    };
    // The interview is over; its review stays in the state, as the fold of the path.
    expect(runner.state()).toMatchObject({ mode: 'assistant', review });
    expect(reviewOf(nodes)).toEqual(review);
    // Rewound to the bank's question, the state is what it was then.
    const asked = nodes.findIndex((n) => n.kind === 'elicit' && n.payload.elicitId === bank?.elicitId);
    expect(reviewOf(nodes.slice(0, asked + 1))).toMatchObject({ done: 1, total: 5 });

    expect(replies(nodes).at(-1)).toBe(
      [
        '(offline) The review is over. 2 of 5 items decided:',
        '- “Changes to your account terms” (Northbank): C. Important update from a service you use → Tier 3 (review). Now surfaced, service-update, Tier 3.',
        '- “Issue 112: winter greens” (The Weekly Sprout): A. Newsletter from a marketing list → Tier 1 (auto-archive). Now archived, newsletter, Tier 1.',
        'Still quarantined: “20% off rain shells this weekend” (Trailgear), “Your points expire in 30 days” (Trailgear Rewards), “Picks for you this week” (Bookbarn).',
      ].join('\n'),
    );
  });

  it('puts a batch of three on one line of the recap, and says when nothing is left', async () => {
    const { runner, path } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    let asked = await nextQuestion(runner);
    for (const letter of ['B', 'A', 'C']) {
      await answer(runner, { action: 'accept', content: { choiceId: letter } }, asked!);
      asked = await nextQuestion(runner, asked);
    }
    await runner.whenIdle();

    expect(runner.state()).toMatchObject({ mode: 'assistant', review: { done: 5, total: 5 } });
    const recap = replies(await path()).at(-1);
    expect(recap).toContain(
      "- “20% off rain shells this weekend” (Trailgear), “Your points expire in 30 days” (Trailgear Rewards), “Picks for you this week” (Bookbarn): B. Promo from a vendor you've bought from → Tier 2 (note, don't surface). Now processed, promotion, Tier 2.",
    );
    expect(recap).toMatch(/^\(offline\) The review is over\. 5 of 5 items decided:/);
    expect(recap).not.toContain('Still quarantined');
  });

  it('takes "wait actually I want to see the bookbarn ones after all", said after the review, as a new reading of Bookbarn\'s mail alone', async () => {
    const { runner, path, store } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    let asked = await nextQuestion(runner);
    for (const letter of ['A', 'A', 'C']) {
      await answer(runner, { action: 'accept', content: { choiceId: letter } }, asked!);
      asked = await nextQuestion(runner, asked);
    }
    await runner.whenIdle();

    await runner.send({ text: 'wait actually I want to see the bookbarn ones after all', authorId: 'u1' });
    await runner.whenIdle();

    expect(store.get('mail-103')).toMatchObject({ status: 'surfaced', classification: { autonomyTier: 3 } });
    expect(store.get('mail-101')).toMatchObject({ status: 'archived', classification: { autonomyTier: 1 } });
    expect(replies(await path()).slice(-2)).toEqual([
      '(offline) C for Bookbarn from now on: applying it.',
      '(offline) Done: 1 updated, now surfaced, Tier 3.',
    ]);
  });

  it('shows the option of a letter typed in the chat after the card was dismissed', async () => {
    const { runner, path } = await openConcierge(offlineModel());
    await runner.send({ text: 'help with quarantined item mail-104', authorId: 'u1' });
    await answer(runner, { action: 'cancel' }, (await nextQuestion(runner))!);
    expect(await nextQuestion(runner)).toBeUndefined();
    expect(runner.state()).toMatchObject({
      review: { items: [{ ...BANK, decision: null }], done: 0, total: 1 },
    });

    await runner.send({ text: 'c', authorId: 'u1' });
    await runner.whenIdle();
    expect(runner.state()).toMatchObject({
      mode: 'assistant',
      review: { items: [{ ...BANK, decision: C_UPDATE }], done: 1, total: 1 },
    });
    expect(replies(await path()).at(-1)).toBe(
      '(offline) The review is over. 1 of 1 item decided:\n- “Changes to your account terms” (Northbank): C. Important update from a service you use → Tier 3 (review). Now surfaced, service-update, Tier 3.',
    );
  });

  it('recaps that nothing changed when the user stops before deciding', async () => {
    const { runner, path } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    let asked = await nextQuestion(runner);
    while (asked) {
      await answer(runner, { action: 'cancel' }, asked);
      asked = await nextQuestion(runner, asked);
    }
    await runner.send({ text: 'stop', authorId: 'u1' });
    await runner.whenIdle();

    expect(runner.state()).toMatchObject({ mode: 'assistant', review: { done: 0, total: 5 } });
    expect(replies(await path()).at(-1)).toBe(
      '(offline) The review is over. None of the 5 items was decided; they stay quarantined.',
    );
  });
});

describe('the option cards (offline)', () => {
  it('show the letters the question asks the user to type', async () => {
    const { runner } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    expect(asked?.message).toContain('type e.g. “B for all of these”');
    expect(asked?.payload).toMatchObject({
      options: [
        { id: 'A', label: 'A. Newsletter from a marketing list → Tier 1 (auto-archive)' },
        { id: 'B', label: "B. Promo from a vendor you've bought from → Tier 2 (note, don't surface)" },
        { id: 'C', label: 'C. Important update from a service you use → Tier 3 (review)' },
      ],
    });
  });
});

describe('a restarted concierge', () => {
  it('shows the same review, rebuilt from the tree, and goes on with the same question', async () => {
    const { runner, port, store } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const promotions = await nextQuestion(runner);
    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, promotions!);
    const newsletter = await nextQuestion(runner, promotions);
    const before = runner.state();
    await runner.close();

    const again = await Runner.open({
      conversationId: 'c1',
      agent: conciergeAgent,
      port,
      model: offlineModel(),
      outbox: silentOutbox,
      logs: { write: () => undefined },
      provide: provideActivityStore(store),
    });
    try {
      expect(again.state()).toEqual(before);
      expect(again.state()).toMatchObject({ review: { done: 3, total: 5 } });
      const asked = await nextQuestion(again);
      expect(asked?.elicitId).toBe(newsletter?.elicitId);
      await answer(again, { action: 'accept', content: { choiceId: 'A' } }, asked!);
      await nextQuestion(again, asked);
      expect(again.state()).toMatchObject({ review: { done: 4, total: 5 } });
      expect(store.batches).toHaveLength(2);
    } finally {
      await again.close();
    }
  });
});
