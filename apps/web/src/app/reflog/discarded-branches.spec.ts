import type { ReflogAction, ReflogEntry, TreeNode } from '@sweatpants/domain';

import { discardedBranches } from './discarded-branches';

const node = (id: string, parentId: string | null): TreeNode =>
  ({
    id,
    conversationId: 'c1',
    parentId,
    depth: 0,
    kind: 'user',
    payload: { text: id },
    authorId: 'u',
    createdAt: '2026-01-01T12:00:00.000Z',
  }) as TreeNode;

/** root → a → b → c (left by a rewind to a) and a → d (HEAD); an older branch root → x → y. */
const tree = new Map(
  [
    node('root', null),
    node('a', 'root'),
    node('b', 'a'),
    node('c', 'b'),
    node('d', 'a'),
    node('x', 'root'),
    node('y', 'x'),
  ].map((n) => [n.id, n]),
);
const onPath = new Set(['root', 'a', 'd']);
const entry = (id: string, action: ReflogAction, oldHead: string | null, newHead: string): ReflogEntry => ({
  id,
  index: 0,
  ref: 'HEAD',
  oldHead,
  newHead,
  action,
  actorId: 'u',
  message: '',
  createdAt: '2026-01-01T12:00:00.000Z',
});

// newest first, as the api pages them
const entries = [
  entry('r7', 'append', 'a', 'd'),
  entry('r6', 'rewind', 'c', 'a'),
  entry('r5', 'append', 'b', 'c'),
  entry('r4', 'append', 'a', 'b'),
  entry('r3', 'rewind', 'y', 'root'),
  entry('r2', 'append', 'x', 'y'),
  entry('r1', 'append', 'root', 'x'),
];

describe('discardedBranches', () => {
  it('offers Recover once per discarded branch, on its newest entry', () => {
    expect([...discardedBranches(entries, tree, onPath).recoverable].sort()).toEqual(['r2', 'r5']);
  });

  it('marks the branch the latest rewind left', () => {
    expect(discardedBranches(entries, tree, onPath).justLeft).toBe('r5');
  });

  it('marks nothing as just left once the latest move came back onto the path', () => {
    const back = [entry('r8', 'recover', 'd', 'c'), ...entries];
    const path = new Set(['root', 'a', 'b', 'c']);
    const marks = discardedBranches(back, tree, path);
    // d's branch was left by the recover: its one entry (r7) offers Recover and is the one just left
    expect(marks.justLeft).toBe('r7');
    expect([...marks.recoverable].sort()).toEqual(['r2', 'r7']);
  });

  it('keeps every discarded entry recoverable when the tree is not known', () => {
    const marks = discardedBranches(entries, new Map(), onPath);
    expect([...marks.recoverable].sort()).toEqual(['r1', 'r2', 'r4', 'r5']);
  });

  it('offers no Recover for a subagent’s attempt left behind: the agent’s own try, not a branch of the person’s', () => {
    const fork = {
      ...node('f', 'a'),
      kind: 'event',
      payload: { type: 'fork', agent: 'directory' },
    } as TreeNode;
    const withAttempt = new Map([...tree, ['f', fork], ['t', node('t', 'f')]]);
    const tried = [entry('r9', 'return', 't', 'a'), entry('r8', 'append', 'f', 't'), ...entries];
    expect([...discardedBranches(tried, withAttempt, onPath).recoverable].sort()).toEqual(['r2', 'r5']);
  });

  it('offers nothing while the path is unknown', () => {
    expect(discardedBranches(entries, tree, null)).toEqual({ recoverable: new Set(), justLeft: null });
  });
});
