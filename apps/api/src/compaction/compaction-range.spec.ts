import type { NodeKind, TreeNode } from '@sweatpants/domain';
import {
  compactionRange,
  REQUESTED_TAIL,
  splitPoints,
  THRESHOLD_TAIL,
  type RangeChoice,
} from './compaction-range';

type Step = [kind: NodeKind, payload?: Record<string, unknown>];

/** A path from the root, one node per step; node i's id is i in hex, so a range reads as indices. */
function pathOf(...steps: Step[]): TreeNode[] {
  return [['root', {}] as Step, ...steps].map(([kind, payload], depth) => ({
    id: depth.toString(16).padStart(64, '0'),
    conversationId: 'c',
    parentId: depth === 0 ? null : (depth - 1).toString(16).padStart(64, '0'),
    depth,
    kind,
    payload: (payload ?? {}) as TreeNode['payload'],
    authorId: kind === 'user' || kind === 'response' ? 'u' : 'agent:tidying',
    createdAt: new Date(0).toISOString(),
  }));
}

/** The range as [first, last] indices on the path, or the reason there is none. */
const indices = (choice: RangeChoice): [number, number] | string =>
  choice.range
    ? [parseInt(choice.range.fromId, 16), parseInt(choice.range.toId, 16)]
    : `reason: ${choice.reason}`;

const user = (text: string, synthetic?: boolean): Step => [
  'user',
  synthetic ? { text, synthetic } : { text },
];
const reply = (text: string): Step => ['assistant', { text }];
const event: Step = ['event', { type: 'x' }];
/** The assistant asking a tool to run, the tool's question, the answer, the result: 5 nodes. */
const askedByTool = (n: number): Step[] => [
  ['assistant', { text: '', content: [{ type: 'tool_use', id: `t${n}`, name: 'ask', input: {} }] }],
  ['tool_call', { name: 'ask', input: {}, toolUseId: `t${n}` }],
  ['elicit', { elicitId: `e${n}`, type: 'choose', message: '?', payload: {} }],
  ['response', { elicitId: `e${n}`, action: 'accept', content: {} }],
  ['tool_result', { name: 'ask', toolUseId: `t${n}`, outcome: { kind: 'success', value: {} } }],
];

describe('compactionRange', () => {
  const turns = pathOf(user('1'), reply('1'), user('2'), reply('2'), user('3'), reply('3'));

  it('for the runner, squashes up to the last user message, as it always did', () => {
    expect(indices(compactionRange(turns, THRESHOLD_TAIL))).toEqual([1, 4]);
  });

  it('for a request, keeps the two latest exchanges', () => {
    expect(indices(compactionRange(turns, REQUESTED_TAIL))).toEqual([1, 2]);
  });

  it("counts answers to the agent's questions as exchanges, and never splits one from its tool call", () => {
    // One message, then the agent's questions one after another, and its reply: [1] is the message.
    const led = pathOf(
      user('desk'),
      event,
      ...askedByTool(1),
      ...askedByTool(2),
      ...askedByTool(3),
      reply('done'),
    );
    expect(indices(compactionRange(led, THRESHOLD_TAIL))).toMatch(/^reason: nothing to squash/);
    // The tail starts at the assistant that asked the second question (index 8), not at its answer.
    expect(indices(compactionRange(led, REQUESTED_TAIL))).toEqual([1, 7]);
  });

  it('does not count the agent’s own synthetic messages as the user’s', () => {
    const path = pathOf(user('1'), reply('1'), user('[Continue as: Sorting]', true), reply('2'), user('3'));
    expect(indices(compactionRange(path, REQUESTED_TAIL))).toMatch(/no longer than the 2 latest exchanges/);
    expect(indices(compactionRange(path, THRESHOLD_TAIL))).toEqual([1, 4]);
  });

  it('keeps a tool still asking in the tail, with the call that runs it and the message its turn began with', () => {
    // Turn 2's tool ([5]-[6]) asked, got its answers at [8] and [10], and asks again at [11]: a
    // runner rebuilt on the new HEAD resumes turn 2 from its message [3], so that stays.
    const path = pathOf(
      user('1'),
      reply('1'),
      user('2'),
      reply('2'),
      ['assistant', { text: '', content: [{ type: 'tool_use', id: 't1', name: 'ask', input: {} }] }],
      ['tool_call', { name: 'ask', input: {}, toolUseId: 't1' }],
      ['elicit', { elicitId: 'e1', type: 'choose', message: '?', payload: {} }],
      ['response', { elicitId: 'e1', action: 'accept', content: {} }],
      ['elicit', { elicitId: 'e2', type: 'choose', message: '?', payload: {} }],
      ['response', { elicitId: 'e2', action: 'accept', content: {} }],
      ['elicit', { elicitId: 'e3', type: 'choose', message: '?', payload: {} }],
    );
    expect(indices(compactionRange(path, REQUESTED_TAIL))).toEqual([1, 2]);
  });

  it('lets a cancel end what it stopped, and ignores a tool use that never ran', () => {
    const path = pathOf(
      user('1'),
      ['assistant', { text: '', content: [{ type: 'tool_use', id: 'never', name: 'x', input: {} }] }],
      ['tool_call', { name: 'ask', input: {}, toolUseId: 't1' }],
      ['elicit', { elicitId: 'e1', type: 'choose', message: '?', payload: {} }],
      ['cancel', { by: 'u' }],
      user('2'),
      reply('2'),
      user('3'),
    );
    expect(
      splitPoints(path)
        .map((s, i) => (s ? i : -1))
        .filter((i) => i >= 0),
    ).toEqual([4, 5]);
    expect(indices(compactionRange(path, REQUESTED_TAIL))).toEqual([1, 5]);
  });

  it('does not cut into a turn still in flight, answered questions and all: its message stays in the tail', () => {
    // As above, but the third question still waits: the turn is resumed from [1] on a rebuild.
    const led = pathOf(
      user('desk'),
      event,
      ...askedByTool(1),
      ...askedByTool(2),
      ...askedByTool(3).slice(0, 3),
    );
    expect(indices(compactionRange(led, REQUESTED_TAIL))).toMatch(/^reason: nothing to squash/);
    const after = pathOf(user('1'), reply('1'), ...led.slice(1).map((n): Step => [n.kind, n.payload]));
    expect(indices(compactionRange(after, REQUESTED_TAIL))).toEqual([1, 2]);
  });

  it('says why when there is nothing to squash', () => {
    expect(indices(compactionRange(pathOf(), REQUESTED_TAIL))).toBe(
      'reason: nothing to squash: the conversation is no longer than the 2 latest exchanges, which a compaction keeps',
    );
    expect(indices(compactionRange(pathOf(user('1'), reply('1')), THRESHOLD_TAIL))).toBe(
      'reason: nothing to squash: the conversation is no longer than the latest turn, which a compaction keeps',
    );
    const summarised = pathOf(
      ['summary', { text: 's', covers: { fromId: 'a', toId: 'b', count: 2 } }],
      user('3'),
      reply('3'),
      user('4'),
      reply('4'),
    );
    expect(indices(compactionRange(summarised, REQUESTED_TAIL))).toBe(
      'reason: nothing to squash: everything before the 2 latest exchanges is already a summary',
    );
    expect(indices(compactionRange(summarised, THRESHOLD_TAIL))).toEqual([2, 3]);
  });
});
