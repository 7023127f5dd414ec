import {
  TurnWaterfallsSchema,
  type Json,
  type NodeKind,
  type ReflogEntry,
  type TreeNode,
} from '@sweatpants/domain';
import { turnWaterfalls } from './turn-waterfalls';

const T0 = Date.parse('2026-11-26T10:00:00.000Z');
const time = (ms: number): string => new Date(T0 + ms).toISOString();
const idOf = (n: number): string => n.toString(16).padStart(64, '0');

/** A made-up path, each node the child of the one before, `ms` after T0. */
function pathOf(steps: readonly [NodeKind, number, Record<string, Json>, string?][]): TreeNode[] {
  return steps.map(
    ([kind, ms, payload, authorId], i) =>
      ({
        id: idOf(i + 1),
        conversationId: 'c1',
        parentId: i === 0 ? null : idOf(i),
        depth: i,
        kind,
        payload,
        authorId: authorId ?? (kind === 'user' || kind === 'response' ? 'u1' : 'agent:tidying'),
        createdAt: time(ms),
      }) as TreeNode,
  );
}

function append(
  oldAt: number,
  newAt: number,
  ms: number,
  action: ReflogEntry['action'] = 'append',
): ReflogEntry {
  return {
    id: String(newAt),
    index: 0,
    ref: 'HEAD',
    oldHead: idOf(oldAt + 1),
    newHead: idOf(newAt + 1),
    action,
    actorId: 'u1',
    message: '',
    createdAt: time(ms),
  };
}

const sonnetUsage = { inputTokens: 1000, outputTokens: 200, cacheWriteTokens: 300, cacheReadTokens: 5000 };

// Turn 1: the person asks; Sonnet answers with a tool call; the tool asks the person a question
// mid-run (a wait inside the turn) and returns; the offline model, on a node older than
// `startedAt`, speaks; the agent's chat question ends the turn. Turn 2: the answer; Haiku replies.
const path = pathOf([
  ['root', -1000, { conversationId: 'c1' }, 'u1'],
  ['assistant', -500, { text: 'Hello', model: 'offline', usage: { inputTokens: 5, outputTokens: 5 } }],
  ['user', 0, { text: 'sort the attic' }],
  [
    'assistant',
    610,
    { text: '', model: 'claude-sonnet-4-5', usage: sonnetUsage, startedAt: time(10), stopReason: 'tool_use' },
  ],
  ['tool_call', 620, { toolUseId: 't1', name: 'measure_box', input: {} }],
  ['elicit', 630, { elicitId: 'e1', type: 'confirm', message: 'Is it heavy?', payload: { default: false } }],
  ['response', 5630, { elicitId: 'e1', action: 'accept', content: { value: true } }],
  ['tool_result', 5700, { toolUseId: 't1', name: 'measure_box', outcome: { kind: 'success', value: 3 } }],
  ['user', 5800, { text: 'also the garage', queued: true }],
  [
    'assistant',
    6500,
    { text: 'Three boxes.', model: 'offline', usage: { inputTokens: 40, outputTokens: 10 } },
  ],
  ['elicit', 6510, { elicitId: 'e2', type: 'chat', message: 'What next?', payload: {} }],
  ['response', 20_000, { elicitId: 'e2', action: 'accept', content: { text: 'the blue box' } }],
  [
    'assistant',
    20_105,
    {
      text: 'Blue box: keep.',
      model: 'claude-haiku-4-5',
      usage: { inputTokens: 100, outputTokens: 50 },
      startedAt: time(20_005),
    },
  ],
]);

const reflog: ReflogEntry[] = [
  append(1, 2, 5), // the person's message stored 5 ms after it was named
  append(2, 5, 640), // the reply, the tool's call and its question, stored before the question went out
  append(5, 10, 6520),
  append(10, 11, 20_002),
  append(11, 12, 20_110),
  append(11, 2, 30_000, 'rewind'), // not a write
];

describe('a conversation’s turns as waterfalls', () => {
  const result = turnWaterfalls(path, reflog);
  const [first, second] = result.turns;

  it('cuts the path at each person’s message or answer, not at an answer given while a tool ran or a message still queued', () => {
    expect(TurnWaterfallsSchema.parse(result)).toEqual(result);
    expect(result.turns.map((t) => [t.number, t.opener, t.nodeId])).toEqual([
      [1, 'sort the attic', idOf(3)],
      [2, 'the blue box', idOf(12)],
    ]);
    expect(first?.startedAt).toBe(time(0));
  });

  it('times a turn from the person’s node to its last node or write', () => {
    expect(first?.durationMs).toBe(6520);
    expect(second?.durationMs).toBe(110);
  });

  it('places each model call from when it was asked to its reply, with its tokens and their cost', () => {
    const models = first?.spans.filter((s) => s.kind === 'model');
    expect(models).toEqual([
      {
        kind: 'model',
        label: 'claude-sonnet-4-5',
        nodeId: idOf(4),
        startMs: 10,
        durationMs: 600,
        estimated: false,
        model: 'claude-sonnet-4-5',
        tokens: sonnetUsage,
        // $3 in, $15 out, $3.75 cache writes, $0.30 cache reads per million tokens
        costUsd: expect.closeTo(0.008625, 9),
      },
      // no startedAt recorded: from the node before, said to be estimated; the offline model is free
      expect.objectContaining({
        label: 'offline',
        startMs: 5700,
        durationMs: 800,
        estimated: true,
        costUsd: 0,
      }),
    ]);
    expect(first?.modelCalls).toBe(2);
    expect(first?.tokens).toEqual({
      inputTokens: 1040,
      outputTokens: 210,
      cacheWriteTokens: 300,
      cacheReadTokens: 5000,
    });
    expect(first?.costUsd).toBeCloseTo(0.008625, 9);
    expect(second?.costUsd).toBeCloseTo(0.00035, 9);
  });

  it('places tools’ runs, waits for the person inside the turn and writes of the tree', () => {
    expect(first?.spans.map((s) => [s.kind, s.label, s.startMs, s.durationMs])).toEqual([
      ['write', '1 node stored', 0, 5],
      ['model', 'claude-sonnet-4-5', 10, 600],
      ['tool', 'measure_box', 620, 5080],
      ['wait', "the person's answer (confirm)", 630, 5000],
      ['write', '3 nodes stored', 630, 10],
      ['model', 'offline', 5700, 800],
      ['write', '5 nodes stored', 6510, 10],
    ]);
  });

  it('ranks the turns, the slowest and the costliest first', () => {
    expect(result.slowest).toEqual([1, 2]);
    expect(result.costliest).toEqual([1, 2]);
    // on the offline model alone, every turn costs $0: the one with more tokens is the heavier
    const offline = pathOf([
      ['root', 0, { conversationId: 'c1' }, 'u1'],
      ['user', 10, { text: 'hi' }],
      ['assistant', 20, { text: 'Hello', model: 'offline', usage: { inputTokens: 5, outputTokens: 5 } }],
      ['user', 30, { text: 'more' }],
      ['assistant', 40, { text: 'More', model: 'offline', usage: { inputTokens: 50, outputTokens: 9 } }],
      ['user', 50, { text: 'and nothing' }],
    ]);
    expect(turnWaterfalls(offline, []).costliest).toEqual([2, 1, 3]);
  });

  it('has no turn before a person has spoken', () => {
    expect(turnWaterfalls(path.slice(0, 2), [])).toEqual({ turns: [], slowest: [], costliest: [] });
  });
});
