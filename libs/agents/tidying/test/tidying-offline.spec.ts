import { Runner } from '@sweatpants/agent-runtime/host';
import { ElicitTypes } from '@sweatpants/domain';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';

import { TIDYING_OFFLINE_RULES, tidyingAgent } from '../src';
import { eventsOf, openSession, PHOTO, stateOf, tapFirst } from './tidying-session-harness';

const offline = () => new OfflineModel(TIDYING_OFFLINE_RULES);

describe('a tidying session on the offline model', () => {
  it('walks from a photo to a summary, saying it is the offline model', async () => {
    const s = await openSession(offline());
    expect(s.runner.pending()[0]?.message).toBe('Send a photo of the space you want to tidy');

    const asked: string[] = [];
    const tap = (q: Parameters<typeof tapFirst>[0]) => {
      asked.push(q.type);
      return tapFirst(q);
    };
    await s.say('My desk is covered in mugs, papers and a lamp', tap, [PHOTO]);
    const first = await s.path();
    const said = first.filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said[0]).toMatch(/offline model/);
    expect(asked).toEqual(['choose', 'propose-disposition']);
    // the mugs go to the kitchen: another room than the office being tidied, so out of it
    expect(s.state()).toMatchObject({
      phase: 'sorting',
      function: 'working',
      room: 'office',
      itemsProcessed: 1,
      piles: { belongs: [], out: ['mugs'], unsure: [] },
      destinations: { mugs: 'kitchen' },
    });

    await s.say('a coffee mug', tap);
    await s.say('the old letters go in the bin', tap);
    await s.say('not sure about the cable', tap);
    // the cable is not decided yet, so it is not counted
    expect(s.state()).toMatchObject({
      phase: 'sorting',
      itemsProcessed: 3,
      piles: { belongs: [], out: ['mugs', 'coffee mug', 'old letters'], unsure: ['cable'] },
      destinations: { mugs: 'kitchen', 'coffee mug': 'kitchen', 'old letters': 'trash' },
      ended: false,
    });
    const texts = (await s.path())
      .filter((n) => n.kind === 'assistant')
      .map((n) => String(n.payload['text']));
    // each names what the photo showed that is still to go
    expect(texts).toContain('Trashed! Next, the papers: say go, or tell me what you picked up.');
    expect(texts).toContain('Unsure pile. Next, the papers: say go, or tell me what you picked up.');

    await s.say("I'm tired, let's stop", tap);
    const path = await s.path();
    expect(s.state()).toMatchObject({ phase: 'ended', ended: true, itemsProcessed: 3 });
    expect(String(path.filter((n) => n.kind === 'assistant').at(-1)?.payload['text'])).toBe(
      '(offline) Session done: 3 items sorted. ' +
        'Out (3): mugs → kitchen, coffee mug → kitchen, old letters → trash; Unsure (1): cable; ' +
        'Still to go (2): papers, lamp. Well done.',
    );
    expect(s.runner.pending()[0]?.message).toMatch(/Session done/);
    expect(new Set(eventsOf(path))).toEqual(
      new Set([
        'user-input-received',
        'photo-analyzed',
        'situation-classified',
        'action-taken',
        'phase-changed',
        'function-chosen',
        'item-proposed',
        'user-confirmed',
        'response-generated',
        'session-ended',
      ]),
    );
  });

  it('takes what the words say the mess stops as what the space is for: no question, straight to the first thing they listed', async () => {
    const s = await openSession(offline());
    const asked: string[] = [];
    await s.say(
      "the garage, we can't park the car anymore. bikes, paint tins, a broken lawnmower and boxes of old toys",
      (q) => {
        asked.push(q.message);
        return tapFirst(q);
      },
      [PHOTO],
    );
    expect(asked).toEqual(['What about the bikes?']);
    expect(s.state()).toMatchObject({
      phase: 'sorting',
      room: 'garage',
      function: 'parking the car',
      seen: ['bikes', 'paint tins', 'broken lawnmower', 'old toys'],
    });
  });

  it('asks what a spare room is for with guests first, and takes "my parents are coming for christmas…" typed at the card as that', async () => {
    const s = await openSession(offline());
    const offered: string[][] = [];
    await s.say(
      'spare room has turned into a dumping ground. ironing pile, suitcases, a broken printer, christmas decorations',
      (q) => {
        if (q.type !== 'choose') return tapFirst(q);
        offered.push(ElicitTypes.choose.payload.parse(q.payload).options.map((o) => o.label));
        return {
          action: 'other',
          content: { text: 'my parents are coming for christmas so it needs to be a bedroom again by then' },
        };
      },
      [PHOTO],
    );
    expect(offered[0]?.slice(0, 3)).toEqual(['having guests to stay', 'storing things', 'working']);
    expect(offered).toHaveLength(1);
    expect(s.state()).toMatchObject({
      phase: 'sorting',
      room: 'spare room',
      function: 'having guests to stay',
      seen: ['ironing pile', 'suitcases', 'broken printer', 'christmas decorations'],
    });
  });

  it.each([
    "that's everything I think!",
    'all done',
    'nothing else',
    "that's the desk done i think",
    'the desk is sorted now',
  ])('ends the session with its recap at %j', async (text) => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    await s.say(text, tapFirst);
    expect(s.state()).toMatchObject({ phase: 'ended', ended: true });
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said.at(-1)).toMatch(/^\(offline\) Session done: 1 item sorted\./);
  });

  it('meets shame about the mess without judgement, and says back what the words said the space is for', async () => {
    const s = await openSession(offline());
    await s.say(
      "honestly I'm so embarrassed, my living room is a tip and I have people coming on saturday",
      tapFirst,
    );
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said.at(-1)).toBe(
      '(offline) No judgement here: every space gets like this, and one small step at a time is enough. ' +
        'Got it: this space is for having people over. Start small: pick up the nearest thing and tell me what it is.',
    );
    expect(s.state()).toMatchObject({ phase: 'sorting', function: 'having people over' });
  });

  it('says back what the words said the space is for before it asks what stays, rather than asking nothing of it', async () => {
    const s = await openSession(offline());
    await s.say(
      'my desk is buried under paperwork, cables and old mugs. I work from home so I need it clear by monday',
      tapFirst,
    );
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said.at(-1)).toBe(
      "(offline) Got it: this space is for working. What's definitely staying in this space?",
    );
    expect(s.state()).toMatchObject({ function: 'working' });
    // the composer asks the same, not what the space is for
    expect(s.runner.pending()[0]?.payload).toMatchObject({ placeholder: 'e.g. the desk and the lamp' });
  });

  it.each([
    ['the monitor and my laptop obviously, and the plant', ['monitor', 'laptop', 'plant']],
    ['none of it really', []],
    ['nothing, it can all go', []],
  ])(
    'takes %j, said when asked what stays, as its answer and begins sorting (it asked again)',
    async (answer, stays) => {
      const s = await openSession(offline());
      await s.say('my desk is buried under paperwork, cables and old mugs. I work from home', tapFirst);
      await s.say(answer, tapFirst);
      const path = await s.path();
      const answered = path.findIndex((n) => n.kind === 'user' && n.payload['text'] === answer);
      const said = path
        .slice(answered)
        .map((n) => (n.kind === 'assistant' ? String(n.payload['text'] ?? '') : ''))
        .filter((text) => text !== '');
      // what the space is for was said back once already: not again
      expect(said[0]).toBe('(offline) Start small: pick up the paperwork.');
      expect(said.some((text) => /definitely staying/.test(text))).toBe(false);
      expect(s.state()).toMatchObject({ phase: 'sorting', anchors: stays });
    },
  );

  it('meets a loss with sorrow, and names no thing after who died (it asked about "the dad died last year")', async () => {
    const s = await openSession(offline());
    await s.say(
      "my dad died last year and I still haven't gone through his things in the spare room",
      tapFirst,
    );
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said).toContain(
      "(offline) I'm sorry about your loss. We'll go gently, one thing at a time, and anything you're not ready to decide can wait. First, one question about the space.",
    );
    expect(said.join('\n')).not.toMatch(/dad died/);
    expect(s.state()).toMatchObject({ seen: [] });
  });

  it('meets shame without judgement before the card that asks what the space is for', async () => {
    const s = await openSession(offline());
    await s.say("I'm so embarrassed by my bedroom", tapFirst);
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said).toContain(
      '(offline) No judgement here: every space gets like this, and one small step at a time is enough. First, one question about the space.',
    );
    expect(said.filter((text) => text.includes('No judgement'))).toHaveLength(1);
  });

  it('says a place given in words back as a place', async () => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    await s.say('keep it on the shelf', tapFirst);
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said.at(-1)).toBe(
      '(offline) Take it to the shelf. Next, the papers: say go, or tell me what you picked up.',
    );
  });

  it('names the thing it puts away when the words named it, and never takes the place for a thing', async () => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    await s.say('the papers go in the drawer', tapFirst);
    await s.say('keep it on the shelf', tapFirst);
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    // the drawer is a spot of this space: the papers are put in it, not taken to it
    expect(said).toContainEqual(expect.stringMatching(/^\(offline\) Put the papers in the drawer\. /));
    expect(said.join('\n')).not.toMatch(/the shelf to the shelf/);
  });

  it('checks in on someone losing heart, and never asks about "the point" as a thing', async () => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    await s.say('ugh whats even the point, it will be messy again next week', tapFirst);
    const said = (await s.path()).filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text']));
    expect(said.at(-1)).toMatch(/How's your energy\?/);
    const asked = (await s.path())
      .filter((n) => n.kind === 'elicit')
      .map((n) => String(n.payload['message']));
    expect(asked.join('\n')).not.toMatch(/point/);
  });

  it('says a charity or the recycling, given in words, as where the thing goes', async () => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    await s.say('donate it', tapFirst);
    const said = async () =>
      (await s.path())
        .filter((n) => n.kind === 'assistant')
        .map((n) => String(n.payload['text']))
        .at(-1);
    expect(await said()).toMatch(/^\(offline\) Put it in the donation bag\. Next, the papers/);
    await s.say('the cables', tapFirst);
    await s.say('recycle them', tapFirst);
    expect(await said()).toMatch(/^\(offline\) Put them in the recycling\./);
    expect(s.state()).toMatchObject({ destinations: { cables: 'recycling' } });
    await s.say('the papers', (q) =>
      q.type === 'propose-disposition' ? { action: 'other', content: { text: 'recycle them' } } : tapFirst(q),
    );
    expect(s.state()).toMatchObject({ destinations: { papers: 'recycling' } });
  });

  it('is deterministic: the same messages give the same conversation', async () => {
    const run = async () => {
      const s = await openSession(offline());
      await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
      await s.say('a stack of old papers', tapFirst);
      return (await s.path()).map((n) => [n.kind, n.payload['text'] ?? null]);
    };
    expect(await run()).toEqual(await run());
  });

  it('rewinding to the middle restores the state exactly, and the session goes on from there', async () => {
    const s = await openSession(offline());
    await s.say('My desk is covered in mugs, papers and a lamp', tapFirst, [PHOTO]);
    await s.say('a coffee mug', tapFirst);
    const middle = await s.path();
    const atMiddle = stateOf(middle);
    await s.say('the old letters go in the bin', tapFirst);
    await s.say('not sure about the cable', tapFirst);
    expect(s.state()).not.toEqual(atMiddle);

    const head = middle.at(-1);
    if (!head) throw new Error('the middle of the session has no head');
    s.port.moveHead('t1', head.id);
    const reopened = await Runner.open({
      conversationId: 't1',
      agent: tidyingAgent,
      port: s.port,
      model: offline(),
      logs: { write: () => undefined },
    });
    // Reopening replays the finished turn at HEAD from its record: it writes nothing.
    await reopened.whenIdle();
    expect(await s.path()).toEqual(middle);
    expect(reopened.state()).toEqual(atMiddle);
    expect(reopened.state()).toMatchObject({
      piles: { belongs: [], out: ['mugs', 'coffee mug'], unsure: [] },
      itemsProcessed: 2,
    });

    expect((await reopened.send({ text: 'the lamp goes on the shelf', authorId: 'u1' })).ok).toBe(true);
    await reopened.whenIdle();
    expect(reopened.state()).toMatchObject({
      piles: { belongs: ['lamp'], out: ['mugs', 'coffee mug'] },
      itemsProcessed: 3,
    });
  });
});
