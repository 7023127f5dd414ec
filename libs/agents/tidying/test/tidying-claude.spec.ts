import type { ElicitRequest } from '@sweatpants/domain';
import { readBody, startFakeAnthropic, type FakeAnthropic } from '@sweatpants/agent-claude/testing';
import { eventsOf, openSession, PHOTO, PHOTO_DATA, claudeAt, type Answer } from './tidying-session-harness';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => fake.close());

const claude = () => claudeAt(fake.url);

const nothing = { item: null, choice: null, place: null, function: null, anchors: null, anxiety: null };
const bodies = () => fake.requests.map(readBody);

/** The user's answers: "something else: writing" for the purpose, then a correction to trash. */
function answers(asked: ElicitRequest[]) {
  return (q: ElicitRequest): Answer => {
    asked.push(q);
    switch (q.type) {
      case 'choose':
        return { action: 'accept', content: { choiceId: 'other', revealed: { text: ' writing ' } } };
      case 'propose-disposition':
        return { action: 'accept', content: { disposition: { kind: 'trash' }, wasCorrection: false } };
      case 'group':
        return { action: 'accept', content: { answers: { done: { value: true } } } };
      default:
        return { action: 'decline' };
    }
  };
}

describe('a tidying session on Claude (the real SDK against the fake Anthropic server)', () => {
  it('goes from a photo to a summary: vision, extraction, decide, tools, a mode switch, a correction, the end', async () => {
    fake.script(
      {
        kind: 'reply',
        content: [
          {
            type: 'tool_use',
            name: 'record_photo_analysis',
            input: {
              roomType: 'office',
              chaosLevel: 'Cluttered',
              visibleItems: ['mugs', 'papers'],
              blockedFunction: "can't use the desk",
              firstTarget: 'mugs',
            },
          },
        ],
      },
      {
        kind: 'reply',
        content: [{ type: 'tool_use', name: 'record_extraction', input: { intent: 'continue', ...nothing } }],
      },
      {
        kind: 'reply',
        content: [
          { type: 'text', text: 'First, what is this desk for?' },
          { type: 'tool_use', name: 'ask_space_function', input: { options: ['working', 'gaming'] } },
        ],
      },
      {
        kind: 'reply',
        content: [
          { type: 'text', text: 'Writing it is.' },
          { type: 'tool_use', name: 'begin_sorting', input: { function: 'writing' } },
        ],
      },
      {
        kind: 'reply',
        content: [
          { type: 'text', text: 'Start with the mugs.' },
          {
            type: 'tool_use',
            name: 'propose_disposition',
            input: {
              item: 'mugs',
              choices: [
                { label: 'Kitchen', disposition: { kind: 'place', location: 'kitchen' } },
                { label: 'Trash', disposition: { kind: 'trash' } },
              ],
              reason: 'they belong with the dishes',
            },
          },
        ],
      },
      { kind: 'reply', content: [{ type: 'text', text: 'Out they go. What next?' }] },
      // the second message: the user stops
      {
        kind: 'reply',
        content: [{ type: 'tool_use', name: 'record_extraction', input: { intent: 'stop', ...nothing } }],
      },
      { kind: 'reply', content: [{ type: 'tool_use', name: 'confirm_done', input: {} }] },
      { kind: 'reply', content: [{ type: 'tool_use', name: 'end_session', input: { summary: 'mugs out' } }] },
      { kind: 'reply', content: [{ type: 'text', text: 'One thing out. Well done.' }] },
    );
    const s = await openSession(claude());
    const asked: ElicitRequest[] = [];

    await s.say('my desk, help', answers(asked), [PHOTO]);

    const [vision, extraction, act] = bodies();
    const sent = vision?.messages[0]?.content;
    const image = Array.isArray(sent) ? sent[0] : sent;
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', data: PHOTO_DATA } });
    expect(vision?.tools?.map((t) => t.name)).toEqual(['record_photo_analysis']);
    expect(extraction?.tools?.map((t) => t.name)).toEqual(['record_extraction']);
    expect(act?.system).toMatch(/Action: ask-function/);
    expect(act?.system).toMatch(/a cluttered office/);
    expect(act?.tools?.map((t) => t.name)).toEqual(['ask_space_function', 'begin_sorting']);
    // the sorting turn after the switch runs with the sorting mode's tools
    expect(bodies()[4]?.tools?.map((t) => t.name)).toEqual([
      'propose_disposition',
      'need_to_clarify',
      'user_seems_stuck',
      'time_to_wrap',
    ]);
    // the choose carried its reveal, and the revealed text became the function
    expect(asked[0]).toMatchObject({
      type: 'choose',
      payload: { reveals: { other: { type: 'free-text' } } },
    });
    expect(s.state()).toMatchObject({
      phase: 'sorting',
      function: 'writing',
      piles: { belongs: [], out: ['mugs'], unsure: [] },
      itemsProcessed: 1,
    });
    const path = await s.path();
    expect(
      path.find((n) => n.kind === 'event' && n.payload['type'] === 'user-corrected')?.payload,
    ).toMatchObject({
      item: 'mugs',
      disposition: { kind: 'trash' },
    });
    expect(path.filter((n) => n.kind === 'mode').map((n) => n.payload['to'])).toEqual(['sorting']);

    await s.say("I'm done for today", answers(asked));
    // the group shows only the questions whose condition holds: nothing is unsure, so one
    expect(asked.at(-1)).toMatchObject({
      type: 'group',
      payload: { questions: [{ id: 'done', type: 'confirm' }] },
    });
    expect(s.state()).toMatchObject({ ended: true, itemsProcessed: 1 });
    expect(fake.pendingSteps).toBe(0);
    const events = eventsOf(await s.path());
    for (const type of [
      'user-input-received',
      'photo-analyzed',
      'situation-classified',
      'action-taken',
      'phase-changed',
      'session-ended',
      'item-proposed',
      'user-corrected',
      'function-chosen',
      'session-confirmed-done',
      'response-generated',
    ])
      expect(events).toContain(type);
  });

  it('sorts every thing one message decides, as Claude read it, and tells the model to say so', async () => {
    const extraction = (input: object) => ({
      kind: 'reply' as const,
      content: [{ type: 'tool_use' as const, name: 'record_extraction', input: { ...nothing, ...input } }],
    });
    fake.script(
      extraction({ intent: 'continue', function: 'working', anchors: ['monitor'] }),
      { kind: 'reply', content: [{ type: 'text', text: 'Pick up the first thing by your hand.' }] },
      extraction({
        intent: 'decided',
        item: 'books',
        choice: 'place',
        place: 'on the shelf',
        alsoDecided: [
          { item: 'lamp', choice: 'place', place: 'on the nightstand' },
          { item: 'receipts', choice: 'trash' },
        ],
      }),
      {
        kind: 'reply',
        content: [{ type: 'text', text: 'Books on the shelf, lamp on the nightstand, receipts out.' }],
      },
    );
    const s = await openSession(claude());
    await s.say('my desk; it is for working, and the monitor stays');
    await s.say('books on the shelf, the lamp on the nightstand and the receipts in the bin');

    expect(s.state()).toMatchObject({
      phase: 'sorting',
      piles: { belongs: ['books'], out: ['lamp', 'receipts'], unsure: [] },
      itemsProcessed: 3,
    });
    const act = bodies().at(-1);
    expect(act?.system).toMatch(/Action: instruct-place/);
    expect(act?.system).toMatch(
      /Also sorted: Take the lamp to the nightstand\. The receipts go in the trash\./,
    );
    expect(act?.system).toMatch(/say in a few words that the rest is sorted as they said/);
    expect(fake.pendingSteps).toBe(0);
  });

  it('reads the words by the offline rules when extraction fails, and asks what the space is for', async () => {
    fake.script(
      { kind: 'error', status: 400, message: 'bad request' },
      { kind: 'reply', content: [{ type: 'text', text: 'What do you need to do in this room?' }] },
    );
    const s = await openSession(claude());
    await s.say('hello');
    const path = await s.path();
    expect(
      path.find((n) => n.kind === 'event' && n.payload['type'] === 'action-taken')?.payload,
    ).toMatchObject({
      action: { tag: 'ask-function' },
      extract: { intent: 'continue' },
    });
    expect(path.at(-1)?.payload).toMatchObject({
      type: 'response-generated',
      text: 'What do you need to do in this room?',
    });
  });

  it('says plainly that the model is busy when it stays overloaded, and keeps what the person said', async () => {
    fake.script(
      {
        kind: 'reply',
        content: [{ type: 'tool_use', name: 'record_extraction', input: { intent: 'continue', ...nothing } }],
      },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
      { kind: 'error', status: 529 },
    );
    const s = await openSession(claude());
    await s.say('hello');
    const said = (await s.path()).filter((n) => n.kind === 'assistant').at(-1);
    expect(said?.payload).toMatchObject({
      fallback: 'overloaded',
      text: expect.stringMatching(/^The model is busy right now.*What you said is kept/),
    });
    expect((await s.path()).some((n) => n.kind === 'user' && n.payload['text'] === 'hello')).toBe(true);
    expect(s.runner.pending()[0]?.type).toBe('chat');
  });
});
