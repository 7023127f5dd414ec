import { OfflineModel } from '@sweatpants/agent-runtime/offline';

import { TIDYING_OFFLINE_RULES } from '../src';
import { eventsOf, openSession, PHOTO, tapFirst } from './tidying-session-harness';

const offline = () => new OfflineModel(TIDYING_OFFLINE_RULES);
const resultOf = async (s: Awaited<ReturnType<typeof openSession>>, tool: string) =>
  (await s.path()).filter((n) => n.kind === 'tool_result' && n.payload['name'] === tool).at(-1)?.payload[
    'outcome'
  ];

describe('question fallbacks', () => {
  it('a question that times out takes the seed fallback (an empty choice), and the session goes on', async () => {
    const s = await openSession(offline(), 20);
    await s.say('My desk is covered in mugs and papers', () => 'wait', [PHOTO]);

    expect(await resultOf(s, 'ask_space_function')).toEqual({
      kind: 'success',
      value: { function: null, fallback: true },
    });
    const path = await s.path();
    expect(path.find((n) => n.kind === 'response')?.payload).toMatchObject({
      action: 'cancel',
      timedOut: true,
    });
    expect(eventsOf(path)).not.toContain('function-chosen');
    expect(String(path.filter((n) => n.kind === 'assistant').at(-1)?.payload['text'])).toMatch(/few words/);
    expect(s.state()).toMatchObject({ phase: 'surveying' });

    await s.say("let's go, it's for working", tapFirst);
    expect(s.state()).toMatchObject({ phase: 'sorting', function: 'working' });
  });

  it('a declined disposition is skipped for now (the seed fallback): nothing is sorted, and the session goes on', async () => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
    const before = s.state();
    await s.say('a coffee mug', (q) =>
      q.type === 'propose-disposition' ? { action: 'decline' } : tapFirst(q),
    );

    expect(await resultOf(s, 'propose_disposition')).toEqual({
      kind: 'success',
      value: { item: 'coffee mug', disposition: { kind: 'skip' }, wasCorrection: false, fallback: true },
    });
    expect(s.state()).toMatchObject({ piles: before.piles, itemsProcessed: before.itemsProcessed });
    expect(s.runner.pending()[0]?.type).toBe('chat');

    await s.say('a broken charger', tapFirst);
    // the mugs went to the kitchen on the first tap: out of this desk, as the charger is
    expect(s.state().piles.out).toEqual(['mugs', 'broken charger']);
  });

  it('a disposition that times out is skipped too, and the next message is handled', async () => {
    const s = await openSession(offline(), 20);
    await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
    await s.say('the lamp', () => 'wait');
    expect(await resultOf(s, 'propose_disposition')).toMatchObject({
      value: { disposition: { kind: 'skip' }, fallback: true },
    });
    await s.say('the lamp goes on the shelf');
    expect(s.state().piles.belongs).toContain('lamp');
  });
});
