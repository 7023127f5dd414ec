import { foldPath, type TreeNode } from '@sweatpants/domain';
import { modeStateOf } from '../src';
import { summaryStates } from '../src/host';
import { testAgent } from '../src/testing/test-agent';

let clock = 0;
const node = (kind: TreeNode['kind'], payload: object): TreeNode =>
  ({
    id: (clock++).toString(16).padStart(64, '0'),
    conversationId: 'c',
    parentId: null,
    depth: 0,
    kind,
    payload,
    authorId: 'agent:test',
    createdAt: new Date(clock).toISOString(),
  }) as TreeNode;

describe("a summary keeps the agent's state", () => {
  it('folds past a summary as it would have folded the range it replaced: the state and the mode', () => {
    const root = node('root', {});
    const range = [
      node('user', { text: 'wrap up' }),
      node('mode', { from: 'chatting', to: 'winding-down', data: { reason: 'tired' } }),
      node('user', { text: '[Continue as: WindingDown] tired', synthetic: true }),
    ];
    const tail = [node('assistant', { text: 'Good work.' })];
    const summary = node('summary', {
      text: 'the user wrapped up',
      covers: { fromId: range[0]!.id, toId: range.at(-1)!.id, count: range.length },
      states: summaryStates(testAgent, [root, ...range]),
    });

    const original = [root, ...range, ...tail];
    const compacted = [root, summary, ...tail];
    expect(modeStateOf(testAgent, compacted)).toEqual(modeStateOf(testAgent, original));
    expect(modeStateOf(testAgent, compacted)).toEqual({ mode: 'winding-down', data: { reason: 'tired' } });
    expect(foldPath(testAgent.state, compacted)).toEqual(foldPath(testAgent.state, original));
  });
});
