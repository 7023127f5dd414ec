import type { ConciergeState } from '@sweatpants/domain';
import { startFakeAnthropic, type FakeAnthropic, type FakeStep } from '../../src/testing';
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

type Body = {
  system?: string;
  tools?: { name: string }[];
  messages: { role: string; content: string | { type: string; content?: string; is_error?: boolean }[] }[];
};
const bodies = () => fake.requests.map((r) => r.body as Body);
const lastToolResult = (body: Body | undefined) =>
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
        { id: 'A', label: 'Newsletter → Tier 1 (auto-archive)', description: 'Bulk mail you never act on.' },
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
        label: "Promo from a vendor you've bought from → Tier 2",
        activityIds: PROMOS,
      },
      updated: 3,
    });
  });

  it('understands "B for all of these" typed instead of a tap, without a side quest', async () => {
    fake.script(...untilTheQuestion(), ...afterThePick());
    const { runner, store } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'other', content: { text: 'B for all of these' } }, asked!);
    await runner.whenIdle();

    expect(fake.requests).toHaveLength(5);
    // The Messages API wants the tool result first in its user turn, the typed words after it.
    const turn = bodies()[3]?.messages.at(-1)?.content;
    expect(Array.isArray(turn) && turn.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(JSON.parse(lastToolResult(bodies()[3])?.content ?? '{}')).toMatchObject({
      choice: 'B',
      said: 'B for all of these',
    });
    expect(store.batches.map((b) => b.ids)).toEqual([PROMOS]);
    expect(store.get('mail-102')?.classification.autonomyTier).toBe(2);
  });
});
