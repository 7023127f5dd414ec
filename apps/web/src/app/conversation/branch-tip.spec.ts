import type { TreeNodeWithChildren } from '@sweatpants/domain';

import { fixtureId, treeFixture } from '../../testing/tree-fixture';
import { branchOf, latestTip, siblingsOf } from './branch-tip';

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
