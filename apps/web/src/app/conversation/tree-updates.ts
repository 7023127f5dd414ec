import type { TreeListingNode, TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/**
 * `path` with those of `arrived` that extend it, in the order they came: nodes the socket
 * delivered while a read of the path was in flight may be newer than what the read returned.
 */
export function extendedBy(path: readonly TreeNode[], arrived: readonly TreeNode[]): TreeNode[] {
  const extended = [...path];
  const seen = new Set(extended.map((n) => n.id));
  for (const node of arrived) {
    if (!seen.has(node.id) && extended.at(-1)?.id === node.parentId) {
      extended.push(node);
      seen.add(node.id);
    }
  }
  return extended;
}

/** The tree with `node` in it, under its parent; the same map when it is there already. */
export function withNode(
  tree: ReadonlyMap<string, TreeListingNode>,
  node: TreeNode,
): ReadonlyMap<string, TreeListingNode> {
  if (tree.has(node.id)) return tree;
  const next = new Map(tree);
  next.set(node.id, { ...node, childIds: [], onHead: false });
  const parent = node.parentId ? next.get(node.parentId) : undefined;
  if (parent && node.parentId)
    next.set(node.parentId, { ...parent, childIds: [...parent.childIds, node.id] });
  return next;
}

/** The elicit a `response` node answers. */
export function responseTo(node: TreeNode): string | null {
  const payload: unknown = node.payload;
  return isRecord(payload) && typeof payload['elicitId'] === 'string' ? payload['elicitId'] : null;
}
