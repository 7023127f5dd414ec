import type { TreeNodeWithChildren } from '@sweatpants/domain';

import { fixtureId, treeFixture } from '../../testing/tree-fixture';
import { branchOf, insideAttempt, latestTip, siblingsOf } from './branch-tip';

const map = (nodes: TreeNodeWithChildren[]) => new Map(nodes.map((n) => [n.id, n]));

describe('branch navigation', () => {
  it('lists siblings in creation order with the node’s place among them', () => {
    const nodes = map(treeFixture());
    expect(siblingsOf(nodes, fixtureId('c2'))).toEqual({ ids: [fixtureId('c1'), fixtureId('c2')], index: 1 });
    expect(siblingsOf(nodes, fixtureId('a1'))).toEqual({ ids: [fixtureId('a1')], index: 0 });
  });

  it('switches to a sibling’s deepest descendant', () => {
    const nodes = map(treeFixture());
    expect(latestTip(nodes, fixtureId('c1'))).toBe(fixtureId('d1'));
    expect(latestTip(nodes, fixtureId('d1'))).toBe(fixtureId('d1'));
  });

  it('prefers the most recently created among equally deep tips', () => {
    const nodes = map(treeFixture());
    // from b1, both d1 and d2 are at depth 4; d2 is newer
    expect(latestTip(nodes, fixtureId('b1'))).toBe(fixtureId('d2'));
  });

  it('finds the fork a shown message stands on through the hidden nodes above it', () => {
    const nodes = map(treeFixture());
    const id = fixtureId;
    // The chat shows only a1 and the replies: c1/c2 (hidden here) fork under a1's reply b1.
    const shown = new Set([id('00'), id('a1'), id('b1'), id('d1'), id('d2')]);
    expect(branchOf(nodes, id('d2'), shown)).toEqual({ ids: [id('c1'), id('c2')], index: 1 });
    expect(branchOf(nodes, id('d1'), shown)).toEqual({ ids: [id('c1'), id('c2')], index: 0 });
    // A fork above the message shown before it belongs to that message, not to this one.
    expect(branchOf(nodes, id('b1'), shown)).toEqual({ ids: [id('b1')], index: 0 });
  });
});

describe('branch navigation beside a subagent’s attempts', () => {
  /**
   * The donation helper's turn: after "yes please" the directory tried collection on a branch of its
   * own and went back (a `fork-return` under the fork point), then tried drop-off from there, went
   * back again, and the helper replied:
   *
   *   u1 → f1 (fork: services that collect) → t1
   *      └→ r1 (fork-return) → f2 (fork: places to take it instead) → t2
   *                          └→ r2 (fork-return) → a1 (the helper's reply)
   */
  function attemptsFixture(): Map<string, TreeNodeWithChildren> {
    const id = fixtureId;
    const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 12, n)).toISOString();
    let minute = 0;
    const node = (
      name: string,
      parent: string,
      depth: number,
      kind: TreeNodeWithChildren['kind'],
      payload: Record<string, unknown>,
      children: string[],
    ) =>
      ({
        id: id(name),
        conversationId: 'c1',
        parentId: id(parent),
        depth,
        kind,
        payload,
        authorId: kind === 'user' ? 'u-1' : 'agent:donations',
        createdAt: at(minute++),
        childIds: children.map(id),
      }) as TreeNodeWithChildren;
    return map([
      node('u1', '00', 1, 'user', { text: "yes please, it's heavy" }, ['f1', 'r1']),
      node('f1', 'u1', 2, 'event', { type: 'fork', agent: 'directory', label: 'services that collect' }, [
        't1',
      ]),
      node('t1', 'f1', 3, 'assistant', { text: 'Checked the collection services' }, []),
      node('r1', 'u1', 2, 'event', { type: 'fork-return', label: 'services that collect' }, ['f2', 'r2']),
      node('f2', 'r1', 3, 'event', { type: 'fork', agent: 'directory', label: 'places to take it' }, ['t2']),
      node('t2', 'f2', 4, 'assistant', { text: 'Checked the reuse centres' }, []),
      node('r2', 'r1', 3, 'event', { type: 'fork-return', label: 'places to take it' }, ['a1']),
      node('a1', 'r2', 4, 'assistant', { text: "I don't know any place near you…" }, []),
    ]);
  }

  it('offers no arrows to an attempt the agent made on a branch of its own', () => {
    const id = fixtureId;
    const shown = new Set([id('u1'), id('a1')]);
    expect(branchOf(attemptsFixture(), id('a1'), shown)).toEqual({ ids: [id('a1')], index: 0 });
  });

  it('tells the nodes inside an attempt from those the conversation goes on from', () => {
    const id = fixtureId;
    const nodes = attemptsFixture();
    expect(insideAttempt(nodes, id('t1'))).toBe(true);
    expect(insideAttempt(nodes, id('f2'))).toBe(true);
    expect(insideAttempt(nodes, id('a1'))).toBe(false);
    expect(insideAttempt(nodes, id('u1'))).toBe(false);
    // an attempt kept ends with its `forward`: from there on, the main line
    const t2 = nodes.get(id('t2')) as TreeNodeWithChildren;
    nodes.set(id('t2'), { ...t2, childIds: [id('w2')] });
    nodes.set(id('w2'), {
      ...t2,
      id: id('w2'),
      parentId: id('t2'),
      kind: 'event',
      payload: { type: 'forward' },
    });
    expect(insideAttempt(nodes, id('w2'))).toBe(false);
  });

  it('still offers the person’s own branches where attempts fork beside them', () => {
    const id = fixtureId;
    const nodes = attemptsFixture();
    // The person regenerated the reply: a second reply beside the first, under the same fork-return.
    const r2 = nodes.get(id('r2')) as TreeNodeWithChildren;
    nodes.set(id('r2'), { ...r2, childIds: [id('a1'), id('a2')] });
    nodes.set(id('a2'), {
      ...(nodes.get(id('a1')) as TreeNodeWithChildren),
      id: id('a2'),
      createdAt: new Date(Date.UTC(2026, 0, 1, 13)).toISOString(),
    });
    const shown = new Set([id('u1'), id('a2')]);
    expect(branchOf(nodes, id('a2'), shown)).toEqual({ ids: [id('a1'), id('a2')], index: 1 });
  });
});
