import type { TreeNode } from '@sweatpants/domain';

import { extendedBy, withNode } from './tree-updates';

const node = (id: string, parentId: string | null): TreeNode =>
  ({
    id,
    parentId,
    kind: 'assistant',
    payload: { text: id },
    authorId: 'agent:tidying',
  }) as unknown as TreeNode;

describe('tree updates', () => {
  it('extends a path with the nodes that chain from its end, in order, once each', () => {
    const path = [node('root', null), node('a', 'root')];
    const arrived = [
      node('x', 'elsewhere'),
      node('b', 'a'),
      node('b', 'a'),
      node('c', 'b'),
      node('a', 'root'),
    ];
    expect(extendedBy(path, arrived).map((n) => n.id)).toEqual(['root', 'a', 'b', 'c']);
    expect(extendedBy(path, []).map((n) => n.id)).toEqual(['root', 'a']);
  });

  it('puts a node under its parent once, leaving the map it was given as it was', () => {
    const tree = withNode(new Map(), node('root', null));
    const grown = withNode(tree, node('a', 'root'));
    expect(grown.get('root')?.childIds).toEqual(['a']);
    expect(tree.get('root')?.childIds).toEqual([]);
    expect(withNode(grown, node('a', 'root'))).toBe(grown);
  });
});
