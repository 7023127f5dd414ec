import type { ConciergeState } from '@sweatpants/domain';
import {
  answer,
  callsOf,
  closeConcierges,
  demoStore,
  nextQuestion,
  offlineModel,
  openConcierge,
  replies,
} from './concierge-harness';

afterEach(closeConcierges);

describe('the quarantine interview on the offline model', () => {
  it.each([
    'hi, what is this exactly? I have no idea what quarantined items are',
    'why are these in quarantine in the first place?',
    'how come my mail is quarantined?',
  ])('says what quarantined items are to someone who asks (%j), then reads them', async (asked) => {
    const { runner, path } = await openConcierge(offlineModel());
    expect((await runner.send({ text: asked, authorId: 'u1' })).ok).toBe(true);
    expect((await nextQuestion(runner))?.type).toBe('choose');
    expect(replies(await path())[0]).toMatch(
      /^\(offline\) Quarantined items are mails your inbox held back .* Let's go through them together\.$/,
    );
  });

  it('goes straight to the review when asked for it', async () => {
    const { runner, path } = await openConcierge(offlineModel());
    expect((await runner.send({ text: 'review my quarantined items', authorId: 'u1' })).ok).toBe(true);
    await nextQuestion(runner);
    expect(replies(await path())[0]).toBe("(offline) Let's go through them together.");
  });

  it('walks query → clusters → choose → one batch update → confirm for every group, and says it is offline', async () => {
    const { runner, store, path } = await openConcierge(offlineModel());
    expect((await runner.send({ text: 'review my quarantined items', authorId: 'u1' })).ok).toBe(true);

    const promotions = await nextQuestion(runner);
    expect(promotions?.type).toBe('choose');
    expect(promotions?.payload).toEqual({
      options: [
        expect.objectContaining({ id: 'A', description: expect.stringContaining('all 3 of these') }),
        expect.objectContaining({ id: 'B', label: expect.stringContaining('Tier 2') }),
        expect.objectContaining({ id: 'C', label: expect.stringContaining('Tier 3') }),
      ],
    });
    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, promotions!);

    const newsletter = await nextQuestion(runner, promotions);
    expect(newsletter?.type).toBe('choose');
    // A question while a middle group's card waits: answered, then the same card comes back.
    await answer(runner, { action: 'other', content: { text: 'what does tier 1 mean?' } }, newsletter!);
    const again = await nextQuestion(runner, newsletter);
    expect(again).toMatchObject({
      type: 'choose',
      message: newsletter?.message,
      payload: newsletter?.payload,
      resumes: newsletter?.elicitId,
    });
    expect(replies(await path()).at(-1)).toBe(
      '(offline) Tier 1 means I archive such mail on my own, without asking you: on this card, “A. Newsletter from a marketing list → Tier 1 (auto-archive)”. Here is the card again: tap an option or type its letter.',
    );
    expect(store.batches).toHaveLength(1);
    // A pick by its place on the card, typed: the first option, as a tap on it would be.
    await answer(runner, { action: 'other', content: { text: 'the first one' } }, again!);

    const bank = await nextQuestion(runner, again);
    expect(bank?.type).toBe('choose');
    await answer(runner, { action: 'decline' }, bank!);
    await runner.whenIdle();

    // One batch per decided group; the undecided one is left as it was.
    expect(store.batches.map((b) => b.ids)).toEqual([['mail-101', 'mail-102', 'mail-103'], ['mail-105']]);
    for (const id of ['mail-101', 'mail-102', 'mail-103']) {
      expect(store.get(id)).toMatchObject({
        status: 'processed',
        classification: { activityType: 'promotion', autonomyTier: 2, confidence: 1 },
      });
    }
    expect(store.get('mail-105')).toMatchObject({
      status: 'archived',
      classification: { activityType: 'newsletter', autonomyTier: 1 },
    });
    expect(store.get('mail-104')).toMatchObject({
      status: 'quarantined',
      classification: { confidence: 0.4 },
    });

    const nodes = await path();
    expect(callsOf(nodes, 'query_activities')).toHaveLength(1);
    expect(callsOf(nodes, 'update_activities')).toHaveLength(2);
    expect(replies(nodes).every((text) => text.startsWith('(offline)'))).toBe(true);
    expect(replies(nodes).join('\n')).toContain('Done: 3 updated, now processed, Tier 2');
    expect(runner.state()).toMatchObject<Partial<ConciergeState>>({
      mode: 'interview',
      updated: 4,
      lastChoice: { optionId: 'A', label: expect.stringContaining('Newsletter'), activityIds: ['mail-105'] },
    });
  });

  it('understands a pick typed in the chat after the card was dismissed, then closes the interview', async () => {
    const { runner, store, path } = await openConcierge(offlineModel());
    await runner.send({ text: 'help with quarantined item mail-104', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    expect(asked?.message).toContain('this item');
    await answer(runner, { action: 'cancel' }, asked!);
    expect(await nextQuestion(runner)).toBeUndefined();
    expect(store.batches).toEqual([]);
    expect(runner.pending()[0]?.message).toBe('Pick an option, or say it in your own words.');

    await runner.send({ text: 'C for this one', authorId: 'u1' });
    await runner.whenIdle();
    expect(store.batches).toEqual([
      { ids: ['mail-104'], updates: expect.objectContaining({ status: 'surfaced' }) },
    ]);
    expect(store.get('mail-104')?.classification).toMatchObject({
      activityType: 'service-update',
      autonomyTier: 3,
    });
    expect(store.get('mail-101')?.status).toBe('quarantined');
    expect(runner.state()).toMatchObject({ mode: 'assistant', updated: 1 });
    expect(replies(await path()).at(-1)).toMatch(/^\(offline\) The review is over/);
  });

  it.each([
    'hey, can you go through my inbox? mostly newsletters I think',
    'could you look at my emails',
    // the inbox's trouble told, not asked after
    'hey, my inbox is out of control, mostly newsletters I never signed up for',
    "I'm drowning in emails",
    // said after it told what it can do
    'ok go through them with me',
  ])('takes "%s" as asking for the interview', async (text) => {
    const { runner, path } = await openConcierge(offlineModel());
    await runner.send({ text, authorId: 'u1' });
    expect((await nextQuestion(runner))?.type).toBe('choose');
    expect(replies(await path())).toContain("(offline) Let's go through them together.");
  });

  it('introduces itself as offline and sorts pending items by the rules when asked', async () => {
    const { runner, store, path } = await openConcierge(offlineModel(), { store: demoStore() });
    await runner.send({ text: 'hello', authorId: 'u1' });
    await runner.whenIdle();
    expect(replies(await path()).at(-1)).toContain('offline model');

    await runner.send({ text: 'sort my new items', authorId: 'u1' });
    await runner.whenIdle();
    expect(store.get('mail-106')).toMatchObject({ status: 'surfaced', classification: { urgency: 'high' } });
    expect(store.get('mail-107')?.status).toBe('archived');
    expect(store.get('mail-108')?.status).toBe('processed');
    expect(store.get('mail-109')?.status).toBe('quarantined');
    expect(replies(await path()).at(-1)).toBe(
      '(offline) Sorted 4: 1 surfaced, 1 archived, 1 processed, 1 quarantined. Say “review my quarantined items” to decide the unclear ones.',
    );
  });

  it.each(['actually, undo the weekly sprout one, I do read that', 'I changed my mind about the bank one'])(
    'answers "%s" with how a pick is taken back (a rewind to before it), changing nothing itself',
    async (text) => {
      const { runner, store, path } = await openConcierge(offlineModel(), { store: demoStore() });
      await runner.send({ text, authorId: 'u1' });
      await runner.whenIdle();
      expect(replies(await path()).at(-1)).toMatch(
        /^\(offline\) To take a pick back, rewind to before it: open ⋯ on the message that picked it and choose “Rewind to here”\./,
      );
      expect(store.batches).toEqual([]);
    },
  );

  it('says what the inbox holds when asked, changing nothing, and the next words still work', async () => {
    const { runner, store, path } = await openConcierge(offlineModel(), { store: demoStore() });
    await runner.send({ text: "what's in my inbox?", authorId: 'u1' });
    await runner.whenIdle();
    expect(replies(await path()).at(-1)).toBe(
      '(offline) Your inbox holds 11 items: 1 shown to you, 5 held back (quarantined), 4 new and not sorted yet, 1 archived. ' +
        'Shown to you: “Dinner on Sunday?” from Sam Rivera. ' +
        'Say “review my quarantined items” to decide the ones held back, or “sort my new items” to sort the new ones.',
    );
    expect(store.batches).toEqual([]);

    await runner.send({ text: 'how many emails do I have?', authorId: 'u1' });
    await runner.whenIdle();
    expect(replies(await path()).at(-1)).toMatch(/^\(offline\) Your inbox holds 11 items:/);
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    expect((await nextQuestion(runner))?.type).toBe('choose');
  });
});
