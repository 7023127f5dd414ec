import type { TreeNode } from './node';
import { applyNode, foldPath, summaryStateKey, type StateReducer } from './state-reducer';

const counter: StateReducer<number> = {
  name: 'count',
  version: 2,
  initial: 0,
  apply: (state, node) => (node.kind === 'user' ? state + 1 : state),
};

const node = (kind: TreeNode['kind'], payload: object): TreeNode =>
  ({
    id: 'x'.repeat(64),
    conversationId: 'c',
    parentId: null,
    depth: 0,
    kind,
    payload,
    authorId: 'u',
    createdAt: new Date(0).toISOString(),
  }) as TreeNode;

describe('folding a path', () => {
  it('folds every node in order from the initial state', () => {
    expect(
      foldPath(counter, [node('root', {}), node('user', { text: 'a' }), node('user', { text: 'b' })]),
    ).toBe(2);
  });

  it("takes a summary's saved state for the range it replaced", () => {
    const summary = node('summary', { text: 's', states: { [summaryStateKey(counter)]: 7 } });
    expect(foldPath(counter, [node('root', {}), summary, node('user', { text: 'c' })])).toBe(8);
  });

  it('ignores a state saved for another reducer or an older version of this one', () => {
    const stale = node('summary', { text: 's', states: { 'count@1': 7, other: 3 } });
    expect(applyNode(counter, 4, stale)).toBe(4);
  });
});
