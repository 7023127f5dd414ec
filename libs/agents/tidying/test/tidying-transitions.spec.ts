import * as z from 'zod';
import {
  err,
  type ElicitRequest,
  type ElicitType,
  JsonSchema,
  type Json,
  type NodeDraft,
  type TidyingState,
  type TreeNode,
} from '@sweatpants/domain';
import { ClaudeModel, claudeConfig } from '@sweatpants/agent-claude';
import { type ModelRequest, modeOf } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import {
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeBlock,
  type FakeStep,
} from '@sweatpants/agent-claude/testing';

import { TIDYING_OFFLINE_RULES, tidyingAgent } from '../src';
import { eventsOf, openSession, tapFirst, type Answer, type Session } from './tidying-session-harness';

/**
 * The tidying coach's transitions, tool failures and question fallbacks, as tables whose rows run
 * on both models: Claude (the real SDK against the fake Anthropic server, its replies scripted)
 * and the offline model (its replies follow from the user's words). Both call every transition
 * tool of seed 001, so a transition row tells the same story on each. A row the offline model
 * cannot reach says why, and runs on the fake server only.
 *
 * Already covered elsewhere, so not here: begin_sorting, a propose_disposition correction and
 * confirm_done → end_session on Claude (tidying-claude.spec.ts); a declined or timed-out
 * disposition and a timed-out function question on the offline model (tidying-fallbacks.spec.ts).
 */

const FAKE = 'the fake Anthropic server';
const OFFLINE = 'the offline model';
type ModelName = typeof FAKE | typeof OFFLINE;

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => fake.close());

interface Run {
  s: Session;
  /** every request the model was sent, in order */
  requests: ModelRequest[];
}

async function open(on: ModelName): Promise<Run> {
  const inner: Model =
    on === OFFLINE
      ? new OfflineModel(TIDYING_OFFLINE_RULES)
      : new ClaudeModel(
          claudeConfig({
            apiKey: 'test-key',
            baseURL: fake.url,
            model: 'claude-sonnet-4-6',
            retry: { baseDelayMs: 1, maxDelayMs: 5 },
          }),
        );
  const requests: ModelRequest[] = [];
  const model: Model = {
    kind: inner.kind,
    name: inner.name,
    complete: (request, options) => {
      requests.push(request);
      return inner.complete(request, options);
    },
  };
  return { s: await openSession(model), requests };
}

/** What the user says, and how they answer what they are asked (the first choice, by default). */
interface Said {
  text: string;
  answer?: (q: ElicitRequest) => Answer;
}

/** A stretch of conversation: the user's messages and, on the fake server, Claude's replies. */
interface Play {
  said: readonly Said[];
  steps: readonly FakeStep[];
}

async function play(run: Run, on: ModelName, p: Play): Promise<void> {
  if (on === FAKE) fake.script(...p.steps);
  for (const m of p.said) await run.s.say(m.text, m.answer ?? tapFirst);
}

const join = (...plays: Play[]): Play => ({
  said: plays.flatMap((p) => p.said),
  steps: plays.flatMap((p) => p.steps),
});
/** Claude's replies that go on the same message (after a transition, in the turn it starts). */
const andThen = (...steps: FakeStep[]): Play => ({ said: [], steps });

// Claude's scripted replies
const NOTHING = { item: null, choice: null, place: null, function: null, anchors: null, anxiety: null };
const extraction = (fields: { [key: string]: Json }): FakeStep => ({
  kind: 'reply',
  content: [{ type: 'tool_use', name: 'record_extraction', input: { ...NOTHING, ...fields } }],
});
const reply = (...blocks: (string | FakeBlock)[]): FakeStep => ({
  kind: 'reply',
  content: blocks.map((b) => (typeof b === 'string' ? { type: 'text', text: b } : b)),
});
const use = (name: string, input: { [key: string]: Json } = {}): FakeBlock => ({
  type: 'tool_use',
  name,
  input,
});
const propose = (item: string): FakeBlock =>
  use('propose_disposition', {
    item,
    choices: [
      { label: 'Keep it here', disposition: { kind: 'place', location: 'its spot here' } },
      { label: 'Donate', disposition: { kind: 'donate' } },
    ],
    reason: 'a first guess',
  });

const A_COFFEE_MUG = 'a coffee mug';

/** From a new conversation to sorting, on either model: the purpose said, no photo. */
const TO_SORTING: Play = {
  said: [{ text: "let's go, it's for working" }],
  steps: [
    extraction({ intent: 'start', function: 'working' }),
    reply('Pick up the nearest thing and tell me what it is.'),
  ],
};

// Reading a conversation
const lastReply = (path: readonly TreeNode[]) => path.filter((n) => n.kind === 'assistant').at(-1)!.payload;
const resultOf = (path: readonly TreeNode[], tool: string) =>
  path.filter((n) => n.kind === 'tool_result' && n.payload['name'] === tool).at(-1)?.payload['outcome'];
/** A tool's error as its tool_result node records it (the runtime's ToolError). */
const ToolErrorSchema = z.object({ kind: z.literal('error'), message: z.string() });
/** What the model reads as its instructions: the system prompt, then the call's notes. */
const readBy = (r: ModelRequest): string => [r.system, r.notes ?? ''].join('\n\n');

const toolNames = (r: ModelRequest) => r.tools.map((t) => t.name);
/** The tool results a request carried back to the model. */
const resultsSent = (r: ModelRequest) =>
  r.messages.flatMap((m) => m.content).flatMap((b) => (b.type === 'tool_result' ? [b] : []));
const lastUserText = (r: ModelRequest) =>
  r.messages
    .filter((m) => m.role === 'user')
    .at(-1)!
    .content.flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('\n');

/** The store refuses the next node `refused` picks, as the tree store refuses one it cannot hold. */
function storeRefuses(s: Session, refused: (draft: NodeDraft) => boolean): void {
  const build = s.port.build.bind(s.port);
  let once = true;
  jest.spyOn(s.port, 'build').mockImplementation((input) => {
    if (once && input.nodes.some(refused)) {
      once = false;
      return err({ code: 'invalid', message: 'the store cannot hold this node' });
    }
    return build(input);
  });
}

async function expectTheUserIsAnswered(
  run: Run,
  on: ModelName,
  said: { fake: string | RegExp; offline?: RegExp },
) {
  const last = lastReply(await run.s.path());
  expect(last['fallback']).toBeUndefined();
  expect(String(last['text'])).toMatch(on === FAKE ? said.fake : said.offline!);
  expect(run.s.runner.pending()[0]?.type).toBe('chat');
  if (on === FAKE) expect(fake.pendingSteps).toBe(0);
}

/** The model names for a row: both, or the fake server alone when the offline rules cannot get there. */
const modelsFor = (offline: unknown): ModelName[] => (typeof offline === 'string' ? [FAKE] : [FAKE, OFFLINE]);

// ─── Transitions ────────────────────────────────────────────────────────────────────────────────

interface TransitionCase {
  tool: string;
  /** what the user notices */
  story: string;
  from: string;
  to: string;
  /** after TO_SORTING: the conversation in which Claude calls `tool` */
  fake: Play;
  /** the same story on the offline model, whose rules hear it in the user's words */
  offline: Play;
  /** the tools the reply in the new mode is asked with; null when that reply is canned */
  toolsAfter: readonly string[] | null;
  reply: { fake: string | RegExp; offline: RegExp };
  then(state: TidyingState, on: ModelName): void;
}

const SORTING_TOOLS = ['propose_disposition', 'need_to_clarify', 'user_seems_stuck', 'time_to_wrap'];

/** The user names the lamp; Claude sees they are stuck on it. */
const STUCK_ON_LAMP: Play = {
  said: [{ text: 'the lamp' }],
  steps: [
    extraction({ intent: 'item', item: 'lamp' }),
    reply(use('user_seems_stuck', { item: 'lamp', reason: 'it was a gift' })),
  ],
};
/** The user asks which mug; Claude sees they cannot tell which one it means, and describes it. */
const WHICH_MUG: Play = {
  said: [{ text: 'which mug?' }],
  steps: [
    extraction({ intent: 'item', item: 'mug' }),
    reply(use('need_to_clarify', { item: 'mug', reason: 'they cannot tell which mug I mean' })),
  ],
};
const WHICH_MUG_DESCRIBED = join(WHICH_MUG, andThen(reply('The blue one, behind the monitor.')));
/** On the offline model: it knows a mug by its kind, and asks whether they see it. */
const WHICH_MUG_OFFLINE: Play = { said: [{ text: 'which mug?' }], steps: [] };

/** A group answer: not done yet. */
const notDone = (q: ElicitRequest): Answer =>
  q.type === 'group' ? { action: 'accept', content: { answers: { done: { value: false } } } } : tapFirst(q);

const TRANSITIONS: TransitionCase[] = [
  {
    tool: 'need_to_clarify',
    story: 'the coach describes the thing it means, in the clarifying mode',
    from: 'sorting',
    to: 'clarifying',
    fake: WHICH_MUG_DESCRIBED,
    offline: WHICH_MUG_OFFLINE,
    toolsAfter: ['resume_sorting', 'skip_item'],
    reply: {
      fake: 'The blue one, behind the monitor.',
      offline: /^\(offline\) I mean the mug: something you drink from, with a handle\. Do you see it now\?/,
    },
    then: (state) => expect(state).toMatchObject({ phase: 'sorting', ended: false }),
  },
  {
    tool: 'skip_item',
    story: 'a thing the coach cannot make clear goes on the unsure pile, and sorting goes on',
    from: 'clarifying',
    to: 'sorting',
    fake: join(
      WHICH_MUG,
      andThen(
        reply(
          'The blue one, behind the monitor. Let us leave it for later.',
          use('skip_item', { item: 'mug' }),
        ),
      ),
    ),
    // a gizmo is no kind of thing the offline model knows, and no photo mentioned one
    offline: { said: [{ text: 'which gizmo?' }], steps: [] },
    toolsAfter: null,
    reply: { fake: 'Unsure pile. Next?', offline: /^Unsure pile\. Next\?$/ },
    then: (state, on) =>
      expect(state).toMatchObject({
        phase: 'sorting',
        piles: { unsure: [on === FAKE ? 'mug' : 'gizmo'] },
      }),
  },
  {
    tool: 'skip_item',
    story: 'told which thing it is, the user says skip: it goes on the unsure pile',
    from: 'clarifying',
    to: 'sorting',
    fake: join(WHICH_MUG_DESCRIBED, {
      said: [{ text: 'skip it' }],
      steps: [
        // the reply is about the mug in question: it stays in the clarifying mode
        extraction({ intent: 'decided', choice: 'unsure', item: 'mug' }),
        reply(use('skip_item', { item: 'mug' })),
      ],
    }),
    offline: join(WHICH_MUG_OFFLINE, { said: [{ text: 'no idea, skip' }], steps: [] }),
    toolsAfter: null,
    reply: { fake: 'Unsure pile. Next?', offline: /^Unsure pile\. Next\?$/ },
    then: (state) => expect(state).toMatchObject({ phase: 'sorting', piles: { unsure: ['mug'] } }),
  },
  {
    tool: 'resume_sorting',
    story: 'once the thing is clear, sorting goes on with it: the coach proposes where it goes',
    from: 'clarifying',
    to: 'sorting',
    fake: join(WHICH_MUG_DESCRIBED, {
      said: [{ text: 'found it' }],
      steps: [
        extraction({ intent: 'continue', item: 'mug' }),
        reply('Good.', use('resume_sorting', { note: 'found it' })),
        // the tap settles the turn: the coach says where the mug went with no further call
        reply('Here is my guess for the mug.', propose('mug')),
      ],
    }),
    offline: join(WHICH_MUG_OFFLINE, { said: [{ text: 'found it' }], steps: [] }),
    toolsAfter: SORTING_TOOLS,
    reply: { fake: /^The mug stays here\./, offline: /^The mug goes out, to the kitchen\./ },
    then: (state, on) =>
      expect(state).toMatchObject(
        on === FAKE
          ? { phase: 'sorting', piles: { belongs: ['mug'], unsure: [] } }
          : { phase: 'sorting', piles: { out: ['mug'], unsure: [] }, destinations: { mug: 'kitchen' } },
      ),
  },
  {
    tool: 'user_seems_stuck',
    story: 'the coach helps decide an item the user is stuck on, in the decision-support mode',
    from: 'sorting',
    to: 'decision-support',
    fake: join(
      STUCK_ON_LAMP,
      andThen(reply('Does the lamp help you work here? If not, someone else could enjoy it.')),
    ),
    // the coach's proposal for the lamp is declined: still stuck, still in decision support
    offline: { said: [{ text: "I'm stuck on the lamp", answer: () => ({ action: 'decline' }) }], steps: [] },
    toolsAfter: ['propose_disposition', 'resume_sorting'],
    reply: {
      fake: 'Does the lamp help you work here? If not, someone else could enjoy it.',
      offline: /leave that one for later/,
    },
    then: (state) =>
      expect(state).toMatchObject({ phase: 'decision-support', phaseData: { stuckItem: 'lamp' } }),
  },
  {
    tool: 'resume_sorting',
    story: 'once the stuck item is decided, sorting goes on with the next thing',
    from: 'decision-support',
    to: 'sorting',
    fake: join(
      STUCK_ON_LAMP,
      andThen(
        reply('Does the lamp help you work here?', propose('lamp')),
        reply(use('resume_sorting', { note: 'the lamp stays' })),
      ),
    ),
    // stuck on the lamp, the user keeps it where it is
    offline: { said: [{ text: "I'm stuck on the lamp" }], steps: [] },
    toolsAfter: null,
    reply: { fake: "What's next?", offline: /^What's next\?$/ },
    then: (state) => expect(state).toMatchObject({ phase: 'sorting', piles: { belongs: ['lamp'] } }),
  },
  {
    tool: 'time_to_wrap',
    story: 'a tired user is wound down: asked whether they are done, then the session ends',
    from: 'sorting',
    to: 'winding-down',
    fake: {
      said: [{ text: 'ugh, this is a lot' }],
      steps: [
        extraction({ intent: 'help' }),
        reply(use('time_to_wrap', { reason: 'they sound tired' })),
        reply('You did a lot today.', use('confirm_done')),
        reply(use('end_session')),
        reply('That is it for today. Well done.'),
      ],
    },
    offline: { said: [{ text: 'ugh, this is a lot' }], steps: [] },
    toolsAfter: ['confirm_done', 'end_session'],
    reply: {
      fake: 'That is it for today. Well done.',
      offline: /^\(offline\) Session done: 0 items sorted\. Nothing sorted yet\. Well done\.$/,
    },
    then: (state) => expect(state).toMatchObject({ ended: true }),
  },
  {
    tool: 'time_to_wrap',
    story: 'a tired user who is not done yet goes back to sorting with the next thing',
    from: 'sorting',
    to: 'winding-down',
    fake: {
      said: [
        { text: "I'm running out of steam", answer: notDone },
        { text: A_COFFEE_MUG, answer: notDone },
      ],
      steps: [
        extraction({ intent: 'help' }),
        reply(use('time_to_wrap', { reason: 'they sound tired' })),
        reply('You did a lot today.', use('confirm_done')),
        reply('Then let us keep going.'),
        extraction({ intent: 'item', item: 'coffee mug' }),
        reply('Here is my guess for the coffee mug.', propose('coffee mug')),
      ],
    },
    offline: {
      said: [
        { text: "I'm running out of steam", answer: notDone },
        { text: A_COFFEE_MUG, answer: notDone },
      ],
      steps: [],
    },
    toolsAfter: ['confirm_done', 'end_session'],
    reply: {
      fake: /^The coffee mug stays here\./,
      offline: /^The coffee mug goes out, to the kitchen\./,
    },
    then: (state) => expect(state).toMatchObject({ phase: 'sorting', ended: false, itemsProcessed: 1 }),
  },
];

describe.each(TRANSITIONS)('the transition tool $tool: $story', (c) => {
  it.each([FAKE, OFFLINE] as const)('on %s', async (on) => {
    const run = await open(on);
    await play(run, on, join(TO_SORTING, on === FAKE ? c.fake : c.offline));
    const path = await run.s.path();

    // the tool ends the turn in the new mode, and the next one starts there from a synthetic message
    const at = path.findLastIndex(
      (n) => n.kind === 'mode' && n.payload['from'] === c.from && n.payload['to'] === c.to,
    );
    expect(at).toBeGreaterThan(-1);
    const switched = path[at]!;
    const called = path.slice(0, at).findLast((n) => n.kind === 'tool_result')!;
    expect(called.payload).toMatchObject({ name: c.tool, outcome: { kind: 'break', next: { mode: c.to } } });
    const next = path[at + 1];
    expect(next?.kind).toBe('user');
    expect(next?.payload).toMatchObject({ synthetic: true, text: expect.stringMatching(/^\[Continue as: /) });

    // the reply after it is asked for in the new mode, with its template and its tools
    if (c.toolsAfter) {
      const template = modeOf(tidyingAgent, c.to).render(JsonSchema.parse(switched.payload['data']));
      const synthetic = String(next?.payload['text']);
      const inMode = run.requests.filter(
        (r) =>
          r.system.startsWith(template) &&
          r.messages.some((m) => m.content.some((b) => b.type === 'text' && b.text === synthetic)),
      );
      expect(inMode.length).toBeGreaterThan(0);
      for (const r of inMode) expect(toolNames(r)).toEqual(c.toolsAfter);
      expect(lastUserText(inMode[0]!)).toBe(synthetic);
    }

    await expectTheUserIsAnswered(run, on, c.reply);
    c.then(run.s.state(), on);
  });
});

// ─── A tool that is not offered, a tool that throws ─────────────────────────────────────────────

interface ToolErrorCase {
  story: string;
  tool: string;
  /** before the message: what goes wrong */
  arrange?(s: Session): void;
  /** after TO_SORTING, on the fake server: the call that fails, then Claude's reply to the error */
  fake: Play;
  /** the offline model says the same words; a string says why it cannot get there */
  offline: true | string;
  /** the error result the model reads */
  error: RegExp;
  reply: { fake: string; offline?: RegExp };
  then(state: TidyingState, path: readonly TreeNode[]): void;
}

const TOOL_ERRORS: ToolErrorCase[] = [
  {
    story: 'a tool the mode does not offer (end_session while sorting) is refused, and the session goes on',
    tool: 'end_session',
    fake: {
      said: [{ text: A_COFFEE_MUG }],
      steps: [
        extraction({ intent: 'item', item: 'coffee mug' }),
        reply(use('end_session')),
        reply('Let us stay with the coffee mug: kitchen, or recycling?'),
      ],
    },
    offline:
      'the offline engine refuses to call a tool the mode does not offer (OfflineModel rejects such a ' +
      'rule as a bug), so only Claude can call an unknown tool',
    error:
      /^unknown tool "end_session"; the tools are: propose_disposition, need_to_clarify, user_seems_stuck, time_to_wrap$/,
    reply: { fake: 'Let us stay with the coffee mug: kitchen, or recycling?' },
    then: (state, path) => {
      expect(state).toMatchObject({ phase: 'sorting', ended: false });
      expect(eventsOf(path)).not.toContain('session-ended');
    },
  },
  {
    story:
      'a tool that throws (propose_disposition, when the store refuses its event) is an error result, and the turn goes on',
    tool: 'propose_disposition',
    arrange: (s) => storeRefuses(s, (d) => d.kind === 'event' && d.payload['type'] === 'item-proposed'),
    fake: {
      said: [{ text: A_COFFEE_MUG }],
      steps: [
        extraction({ intent: 'item', item: 'coffee mug' }),
        reply('Here is my guess for the coffee mug.', propose('coffee mug')),
        reply('That did not work. Tell me the next thing you pick up.'),
      ],
    },
    offline:
      'the offline reading readies the card itself, with no act call to read the error: a card that fails so is proposed by the act call instead',
    error: /^propose_disposition failed: .*the store cannot hold this node/,
    reply: {
      fake: 'That did not work. Tell me the next thing you pick up.',
      offline: /leave that one for later/,
    },
    then: (state, path) => {
      // nothing was asked, nothing was sorted
      expect(path.some((n) => n.kind === 'elicit' && n.payload['type'] === 'propose-disposition')).toBe(
        false,
      );
      expect(state.piles).toEqual({ belongs: [], out: [], unsure: [] });
    },
  },
];

describe.each(TOOL_ERRORS)('$story', (c) => {
  it.each(modelsFor(c.offline))('on %s', async (on) => {
    const run = await open(on);
    await play(run, on, TO_SORTING);
    c.arrange?.(run.s);
    await play(run, on, on === FAKE ? c.fake : { said: c.fake.said, steps: [] });
    const path = await run.s.path();

    const outcome = ToolErrorSchema.parse(resultOf(path, c.tool));
    expect(outcome).toMatchObject({ kind: 'error', message: expect.stringMatching(c.error) });
    // the model reads the error and answers the user in the same turn
    const told = run.requests.filter((r) =>
      resultsSent(r).some((b) => b.isError && b.content === outcome.message),
    );
    expect(told).toHaveLength(1);
    await expectTheUserIsAnswered(run, on, c.reply);
    c.then(run.s.state(), path);
  });
});

// ─── Question fallbacks ─────────────────────────────────────────────────────────────────────────

/** A question tool, the conversation that leads to it, and what it goes on with unanswered. */
interface QuestionRoute {
  tool: string;
  question: ElicitType;
  /** from a new conversation to just before the message that leads to the question */
  before: Play;
  /** that message; on the fake server, the call that asks the question, then Claude's reply */
  ask: Play;
  /** a string says why the offline model cannot get there */
  offline: true | string;
  reply: { fake: string; offline?: RegExp };
  /** seed 002's fallback answer, and the tool's result with it */
  fallback: string;
  result: Json;
  then(state: TidyingState, path: readonly TreeNode[]): void;
}

const PROPOSAL: QuestionRoute = {
  tool: 'propose_disposition',
  question: 'propose-disposition',
  before: TO_SORTING,
  ask: {
    said: [{ text: A_COFFEE_MUG }],
    steps: [
      extraction({ intent: 'item', item: 'coffee mug' }),
      reply('Here is my guess for the coffee mug.', propose('coffee mug')),
      reply('No problem, we leave it for later. What is next?'),
    ],
  },
  offline: true,
  reply: {
    fake: 'No problem, we leave it for later. What is next?',
    offline: /leave the coffee mug for later/,
  },
  fallback: 'skip for now',
  result: { item: 'coffee mug', disposition: { kind: 'skip' }, wasCorrection: false, fallback: true },
  then: (state, path) => {
    // nothing is sorted
    expect(state).toMatchObject({ phase: 'sorting', piles: { belongs: [], out: [], unsure: [] } });
    expect(eventsOf(path).filter((e) => e === 'user-confirmed' || e === 'user-corrected')).toEqual([]);
  },
};

const PURPOSE: QuestionRoute = {
  tool: 'ask_space_function',
  question: 'choose',
  before: { said: [], steps: [] },
  ask: {
    said: [{ text: 'help me sort this room' }],
    steps: [
      extraction({ intent: 'help' }),
      reply(
        'First: what do you need to do in this space?',
        use('ask_space_function', { options: ['working', 'relaxing'] }),
      ),
      reply('Tell me in a few words what you need to do here.'),
    ],
  },
  offline: true,
  reply: { fake: 'Tell me in a few words what you need to do here.', offline: /few words/ },
  fallback: 'no choice',
  result: { function: null, fallback: true },
  then: (state, path) => {
    // the space has no purpose yet: the coach is still surveying
    expect(state.phase).toBe('surveying');
    expect(state.function).toBeUndefined();
    expect(eventsOf(path)).not.toContain('function-chosen');
  },
};

/** In sorting with something unsure, so that confirm_done also asks what to remember about it. */
const WRAP_UP: QuestionRoute = {
  tool: 'confirm_done',
  question: 'group',
  before: join(TO_SORTING, {
    said: [{ text: 'not sure about the cable' }],
    steps: [extraction({ intent: 'decided', choice: 'unsure', item: 'cable' })],
  }),
  ask: {
    said: [{ text: 'ugh, this is a lot' }],
    steps: [
      extraction({ intent: 'help' }),
      reply(use('time_to_wrap', { reason: 'they sound tired' })),
      reply('You did a lot today.', use('confirm_done')),
      reply('Thank you. Tell me how you want to go on.'),
    ],
  },
  offline: true,
  reply: { fake: 'Thank you. Tell me how you want to go on.', offline: /let us keep going/ },
  fallback: 'the default, not done',
  result: { done: false, fallback: true },
  then: (state, path) => {
    expect(state).toMatchObject({ ended: false, piles: { unsure: ['cable'] } });
    expect(eventsOf(path)).not.toContain('session-confirmed-done');
  },
};

/** The store refuses the question's elicit node: asking fails (seed 002's handler failure). */
const REFUSED = 'refused by the store';
/** How a question goes unanswered: an answer the runner takes, or asking it fails. */
type Unanswered = Answer | typeof REFUSED;

interface FallbackCase {
  route: QuestionRoute;
  how: string;
  unanswered: Unanswered;
  /** where the row differs from its route */
  differs?: Pick<QuestionRoute, 'fallback' | 'result' | 'then'> & Partial<Pick<QuestionRoute, 'reply'>>;
}

const FALLBACKS: FallbackCase[] = [
  // propose_disposition → skip (declined, timed out: tidying-fallbacks.spec.ts)
  { route: PROPOSAL, how: 'dismissed', unanswered: { action: 'cancel' } },
  { route: PROPOSAL, how: REFUSED, unanswered: REFUSED },
  // choose → no choice (timed out: tidying-fallbacks.spec.ts)
  { route: PURPOSE, how: 'declined', unanswered: { action: 'decline' } },
  { route: PURPOSE, how: 'dismissed', unanswered: { action: 'cancel' } },
  { route: PURPOSE, how: REFUSED, unanswered: REFUSED },
  {
    route: PURPOSE,
    how: 'answered with an option it did not offer',
    unanswered: { action: 'accept', content: { choiceId: 'dancing' } },
  },
  // "something else" reveals a free-text: blank words are empty text, so no choice either
  {
    route: PURPOSE,
    how: 'answered "something else" with blank words',
    unanswered: { action: 'accept', content: { choiceId: 'other', revealed: { text: '   ' } } },
  },
  // confirm → its default; the group's free-text → empty text
  { route: WRAP_UP, how: 'declined', unanswered: { action: 'decline' } },
  { route: WRAP_UP, how: 'dismissed', unanswered: { action: 'cancel' } },
  { route: WRAP_UP, how: REFUSED, unanswered: REFUSED },
  {
    route: WRAP_UP,
    how: 'answered "done" but not what to remember',
    unanswered: { action: 'accept', content: { answers: { done: { value: true } } } },
    differs: {
      fallback: 'done, and an empty note',
      result: { done: true, fallback: true },
      reply: {
        fake: 'Thank you. Tell me how you want to go on.',
        offline: /^\(offline\) Session done: 0 items sorted\. Unsure \(1\): cable\. Well done\.$/,
      },
      then: (state, path) => {
        expect(resultOf(path, 'confirm_done')).not.toHaveProperty('value.note');
        expect(state.ended).toBe(true);
        expect(eventsOf(path)).toContain('session-confirmed-done');
      },
    },
  },
];

describe.each(
  FALLBACKS.map((c) => {
    const expected = { ...c.route, ...c.differs };
    return [
      `${c.route.tool}: when its question is ${c.how}, it goes on with ${expected.fallback}`,
      c,
      expected,
    ] as const;
  }),
)('%s', (_title, { route, unanswered }, expected) => {
  it.each(modelsFor(route.offline))('on %s', async (on) => {
    const run = await open(on);
    await play(run, on, route.before);
    if (unanswered === REFUSED)
      storeRefuses(run.s, (d) => d.kind === 'elicit' && d.payload['type'] === route.question);
    const answer = (q: ElicitRequest): Answer =>
      q.type !== route.question || unanswered === REFUSED ? tapFirst(q) : unanswered;
    await play(run, on, { said: route.ask.said.map((m) => ({ ...m, answer })), steps: route.ask.steps });
    const path = await run.s.path();

    expect(resultOf(path, route.tool)).toMatchObject({ kind: 'success', value: expected.result });
    if (unanswered === REFUSED)
      expect(path.some((n) => n.kind === 'elicit' && n.payload['type'] === route.question)).toBe(false);
    await expectTheUserIsAnswered(run, on, expected.reply);
    expected.then(run.s.state(), path);
  });
});

// ─── Splitting → refining ───────────────────────────────────────────────────────────────────────

/** Six unsure things (more than five): two papers, two electronics, clothes, and a vase. */
const UNSURE = ['old letters', 'receipts', 'cable', 'charger', 'scarf', 'vase'];
/** The offline rules split by kind... */
const CATEGORIES = ['papers', 'electronics', 'clothes', 'everything else'];
/** ...and Claude by what the person's own things have in common (seed 000's emergent categories). */
const DRAWN = [
  { name: 'letters and receipts', items: ['old letters', 'receipts'] },
  { name: 'cables and chargers', items: ['cable', 'charger'] },
  { name: 'odds and ends', items: ['scarf', 'vase'] },
];
const grouping: FakeStep = {
  kind: 'reply',
  content: [{ type: 'tool_use', name: 'record_categories', input: { categories: DRAWN } }],
};

describe('a big unsure pile', () => {
  it.each([FAKE, OFFLINE] as const)(
    'is split into categories, then gone through one item at a time, then sorting goes on (on %s)',
    async (on) => {
      const run = await open(on);
      await play(run, on, TO_SORTING);
      await play(run, on, {
        said: UNSURE.map((item) => ({ text: `not sure about the ${item}` })),
        steps: UNSURE.map((item) => extraction({ intent: 'decided', choice: 'unsure', item })),
      });
      expect(run.s.state()).toMatchObject({ phase: 'sorting', piles: { unsure: UNSURE } });

      // going on with more than five unsure: the coach splits the pile
      await play(run, on, {
        said: [{ text: 'ok, go on' }],
        steps: [
          extraction({ intent: 'continue' }),
          grouping,
          reply('That pile is big: letters and receipts here, cables and chargers there, odds and ends.'),
        ],
      });
      const categories = on === FAKE ? DRAWN.map((g) => g.name) : CATEGORIES;
      expect(run.s.state()).toMatchObject({ phase: 'splitting', phaseData: { categories } });
      expect(readBy(run.requests.at(-1)!)).toContain(`split it into ${categories.join(', ')}`);
      await expectTheUserIsAnswered(run, on, {
        fake: /letters and receipts here/,
        offline: /split it into smaller piles/,
      });

      // going on again: refining, the first category first, one proposal per message
      const goOn: Play = {
        said: [{ text: 'go on' }],
        steps: [extraction({ intent: 'continue' })],
      };
      for (const item of UNSURE) {
        const asked = run.requests.length;
        await play(
          run,
          on,
          join(goOn, andThen(reply(`Here is my guess for the ${item}.`, propose(item)), reply('Next?'))),
        );
        if (item === UNSURE[0])
          expect(run.s.state()).toMatchObject({
            phase: 'refining',
            phaseData: { currentCategory: on === FAKE ? 'letters and receipts' : 'papers' },
          });
        // the coach is asked about this item, and only this one, on this message
        const about = run.requests.slice(asked).flatMap((r) => /^Item: (.+)$/m.exec(readBy(r))?.[1] ?? []);
        expect([...new Set(about)]).toEqual([item]);
      }

      // every item decided: back to sorting, nothing left unsure
      await play(run, on, join(goOn));
      const state = run.s.state();
      expect(state).toMatchObject({ phase: 'sorting', piles: { unsure: [] } });
      expect([...state.piles.belongs, ...state.piles.out].sort()).toEqual([...UNSURE].sort());
      await expectTheUserIsAnswered(run, on, { fake: "What's next?", offline: /^What's next\?$/ });
    },
  );
});
