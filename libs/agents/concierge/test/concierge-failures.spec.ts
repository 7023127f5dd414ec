import {
  readBody,
  startFakeAnthropic,
  type FakeAnthropic,
  type ReadBlock,
} from '@sweatpants/agent-claude/testing';
import {
  answer,
  claudeAt,
  closeConcierges,
  demoStore,
  nextQuestion,
  offlineModel,
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

const lastToolResult = (request: number): ReadBlock | undefined => {
  const sent = fake.requests[request];
  if (!sent) throw new Error(`the fake received no request ${request}`);
  return readBody(sent)
    .messages.flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((b) => b.type === 'tool_result')
    .at(-1);
};

describe('when the concierge cannot do what was asked', () => {
  it('refuses a batch naming an unknown id, changes nothing, and lets the model correct itself', async () => {
    fake.script(
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'update_activities',
            input: { activity_ids: ['mail-101', 'mail-999'], updates: { status: 'archived' } },
          },
        ],
      },
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'update_activities',
            input: { activity_ids: ['mail-101'], updates: { status: 'archived' } },
          },
        ],
      },
      {
        kind: 'reply',
        content: [{ type: 'text', text: 'Archived the Trailgear sale; mail-999 does not exist.' }],
      },
    );
    const { runner, store } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'archive mail-101 and mail-999', authorId: 'u1' });
    await runner.whenIdle();

    expect(lastToolResult(1)).toMatchObject({
      is_error: true,
      content: 'update_activities: unknown activity ids mail-999; nothing was changed',
    });
    expect(store.batches).toEqual([{ ids: ['mail-101'], updates: { status: 'archived' } }]);
    expect(store.get('mail-101')?.status).toBe('archived');
  });

  it('says the store failed, and the interview goes on once it is back', async () => {
    const store = demoStore();
    store.failure = { code: 'unavailable', message: 'connection refused' };
    const { runner, path } = await openConcierge(offlineModel(), { store });
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    expect(await nextQuestion(runner)).toBeUndefined();
    expect(replies(await path()).at(-1)).toBe(
      '(offline) I could not read your items: query_activities: the activity store is unavailable (connection refused); nothing was changed. Ask me again in a moment.',
    );
    expect(runner.state()).toMatchObject({ mode: 'interview' });

    store.failure = undefined;
    await runner.send({ text: 'try again please', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    expect(asked?.type).toBe('choose');
    await answer(runner, { action: 'accept', content: { choiceId: 'A' } }, asked!);
    expect((await nextQuestion(runner, asked))?.type).toBe('choose');
    expect(store.batches.map((b) => b.ids)).toEqual([['mail-101', 'mail-102', 'mail-103']]);
  });

  it('takes the Choose fallback (no pick) when a question times out, and goes on to the next group', async () => {
    const { runner, store, path } = await openConcierge(offlineModel(), { questionTimeoutMs: 30 });
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const first = await nextQuestion(runner);
    expect(first?.timeoutMs).toBe(30);

    const second = await nextQuestion(runner, first);
    expect(second?.type).toBe('choose');
    const unanswered = (await path()).find((n) => n.kind === 'response');
    expect(unanswered?.payload).toMatchObject({ elicitId: first?.elicitId, action: 'cancel' });
    expect(replies(await path()).at(-1)).toMatch(/^\(offline\) No pick, so those stay quarantined for now\./);
    expect(store.batches).toEqual([]);

    await answer(runner, { action: 'accept', content: { choiceId: 'A' } }, second!);
    await nextQuestion(runner, second);
    expect(store.batches.map((b) => b.ids)).toEqual([['mail-105']]);
    expect(store.get('mail-101')?.status).toBe('quarantined');
  });

  it('gives its fallback reply when the model stays overloaded', async () => {
    fake.script(
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
    );
    const { runner, store, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    await runner.whenIdle();
    expect(replies(await path()).at(-1)).toBe(
      'The model is busy right now, so I could not answer. Nothing was changed and what you said is kept; ask again in a minute.',
    );
    // What they said is on the path, for when they go on.
    expect(JSON.stringify(await path())).toContain('review my quarantined items');
    expect(store.batches).toEqual([]);
  });
});
