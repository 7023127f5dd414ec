import * as z from 'zod';
import type { Json } from '@sweatpants/domain';
import { modeStateOf } from '@sweatpants/agent-runtime';
import {
  asTheModelReads,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeStep,
} from '@sweatpants/agent-claude/testing';

import { conciergeAgent, LEARNT_HEADING } from '../src';
import {
  answer,
  claudeAt,
  closeConcierges,
  nextQuestion,
  offlineModel,
  openConcierge,
  replies,
} from './concierge-harness';

/**
 * Seed 001's turn in the interview: each pick's lesson comes back as the mode's structured output,
 * becomes the interview's data, and the template of every later step shows it.
 */

let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await closeConcierges();
  await fake?.close();
  fake = undefined;
});

const PROMOS = ['mail-101', 'mail-102', 'mail-103'];
const B_UPDATES = { status: 'processed', classification: { activity_type: 'promotion', autonomy_tier: 2 } };
const LESSON = 'Promotions from shops they buy from: keep a note, do not show them (Tier 2)';

const option = (id: string, label: string, updates: Json) => ({ id, label, reason: `${id} fits`, updates });

/** Claude's interview of the promotions, then of the newsletter, reading the lesson in between. */
const interview = (): FakeStep[] => [
  { kind: 'reply', content: [{ type: 'tool_use', name: 'start_review', input: {} }] },
  {
    kind: 'reply',
    content: [{ type: 'tool_use', name: 'query_activities', input: { status: 'quarantined' } }],
  },
  {
    kind: 'reply',
    content: [
      {
        type: 'tool_use',
        name: 'present_options',
        input: {
          activity_ids: PROMOS,
          message: 'How should I read these three?',
          options: [
            option('A', 'Newsletter → Tier 1', { status: 'archived' }),
            option('B', 'Vendor promo → Tier 2', B_UPDATES),
          ],
        },
      },
    ],
  },
  {
    kind: 'reply',
    content: [
      { type: 'text', text: 'Done: all three are noted, Tier 2.' },
      { type: 'tool_use', name: 'update_activities', input: { activity_ids: PROMOS, updates: B_UPDATES } },
      { type: 'tool_use', name: 'respond', input: { learnt: LESSON } },
    ],
  },
  { kind: 'reply', content: [{ type: 'text', text: 'That was the promotions; shall we go on?' }] },
];

describe('what the interview learns from each pick (the mode’s structured output)', () => {
  it('on Claude: the request offers the output schema, the reply’s output becomes the mode data the next request shows, with no call of its own', async () => {
    fake = await startFakeAnthropic();
    fake.script(...interview());
    const { runner, path } = await openConcierge(claudeAt(fake));
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });
    const asked = await nextQuestion(runner);
    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, asked!);
    await runner.whenIdle();

    // The five scripted replies were the whole turn: the output rode on the update's reply.
    expect(fake.requests).toHaveLength(5);
    const bodies = fake.requests.map(asTheModelReads);
    const respond = fake.requests[1]?.body?.tools?.find((t) => 'name' in t && t.name === 'respond');
    expect(respond && 'input_schema' in respond ? respond.input_schema : undefined).toMatchObject({
      type: 'object',
      properties: { learnt: { type: 'string' } },
      required: ['learnt'],
    });
    expect(bodies[3]?.system).not.toContain(LEARNT_HEADING);
    expect(bodies[4]?.system).toContain(`${LEARNT_HEADING}\n- ${LESSON}`);

    const nodes = await path();
    expect(modeStateOf(conciergeAgent, nodes)).toEqual({
      mode: 'interview',
      data: { activityIds: [], learnt: [LESSON] },
    });
    expect(replies(nodes).at(-1)).toBe('That was the promotions; shall we go on?');
  });

  it('offline: a pick becomes a lesson the next group’s question recalls, and a later pick adds to it', async () => {
    const { runner, path } = await openConcierge(offlineModel());
    await runner.send({ text: 'review my quarantined items', authorId: 'u1' });

    const promotions = await nextQuestion(runner);
    expect(replies(await path()).at(-1)).not.toContain('So far you chose');
    await answer(runner, { action: 'accept', content: { choiceId: 'B' } }, promotions!);

    const newsletter = await nextQuestion(runner, promotions);
    const first = modeStateOf(conciergeAgent, await path()).data;
    expect(first).toEqual({
      activityIds: [],
      learnt: [
        expect.stringMatching(/^B\. .*Tier 2.* for mail from Trailgear, Trailgear Rewards, Bookbarn$/),
      ],
    });
    const [lesson] = z.object({ learnt: z.array(z.string()) }).parse(first).learnt;
    expect(replies(await path()).at(-1)).toContain(`So far you chose: ${lesson}.`);

    await answer(runner, { action: 'other', content: { text: 'A for this one' } }, newsletter!);
    await nextQuestion(runner, newsletter);
    const { data } = modeStateOf(conciergeAgent, await path());
    expect(data).toEqual({
      activityIds: [],
      learnt: [lesson, expect.stringMatching(/^A\. .* for mail from The Weekly Sprout$/)],
    });
    expect(replies(await path()).at(-1)).toContain(`So far you chose: ${lesson}; A. `);
  });
});
