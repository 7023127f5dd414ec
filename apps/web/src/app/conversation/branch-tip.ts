import type { TreeNode, TreeNodeWithChildren } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/**
 * Where a branch ends: the deepest descendant of `fromId` (itself if it has none), and among
 * equally deep ones the most recently created. Switching to a sibling moves HEAD here, so the
 * user lands on the latest state of that branch rather than at its fork point.
 */
export function latestTip(nodes: ReadonlyMap<string, TreeNodeWithChildren>, fromId: string): string {
  let best = nodes.get(fromId);
  if (!best) return fromId;
  const stack = [...best.childIds];
  const seen = new Set<string>([fromId]);
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    const node = nodes.get(id);
    if (!node) continue;
    if (isLater(node, best)) best = node;
    stack.push(...node.childIds);
  }
  return best.id;
}

function isLater(a: TreeNodeWithChildren, b: TreeNodeWithChildren): boolean {
  if (a.depth !== b.depth) return a.depth > b.depth;
  if (a.createdAt !== b.createdAt) return Date.parse(a.createdAt) > Date.parse(b.createdAt);
  return a.id > b.id;
}

/**
 * A node's siblings (itself included) in the order they were created, and where it stands; `keep`
 * leaves out the siblings it refuses (never the node itself).
 */
export function siblingsOf(
  nodes: ReadonlyMap<string, TreeNodeWithChildren>,
  nodeId: string,
  keep: (sibling: TreeNodeWithChildren) => boolean = () => true,
): { ids: string[]; index: number } {
  const node = nodes.get(nodeId);
  const parent = node?.parentId ? nodes.get(node.parentId) : undefined;
  if (!parent) return { ids: [nodeId], index: 0 };
  const ids = parent.childIds
    .map((id) => nodes.get(id))
    .filter((child): child is TreeNodeWithChildren => child !== undefined)
    .filter((child) => child.id === nodeId || keep(child))
    .sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1))
    .map((child) => child.id);
  const index = ids.indexOf(nodeId);
  return index === -1 ? { ids: [nodeId], index: 0 } : { ids, index };
}

/**
 * The branches a message in the chat stands among. Between two messages the chat shows sit nodes
 * it hides (events, tool calls, empty model turns); a regenerate or a rewind may fork among those,
 * so the fork that puts this message on its branch is found by walking up from it through the
 * hidden nodes to the first parent with more than one child, stopping at the message shown before
 * it. Its siblings are that parent's children; switching to one lands on that branch's latest tip.
 *
 * A subagent's attempt (seed 004's fork, abandoned or kept) is a branch the agent made, not the
 * person: the tree shows it, the chat offers no arrows to it. Stepping into one would move HEAD into
 * the middle of a side quest, and the agent would go on from there.
 */
export function branchOf(
  nodes: ReadonlyMap<string, TreeNodeWithChildren>,
  nodeId: string,
  shown: ReadonlySet<string>,
): { ids: string[]; index: number } {
  let current = nodes.get(nodeId);
  while (current?.parentId) {
    const parent = nodes.get(current.parentId);
    if (!parent) break;
    if (parent.childIds.length > 1) {
      const branches = siblingsOf(nodes, current.id, (sibling) => !isAttempt(sibling));
      if (branches.ids.length > 1) return branches;
    }
    if (shown.has(parent.id)) break;
    current = parent;
  }
  return { ids: [nodeId], index: 0 };
}

/**
 * Whether a node is inside a subagent's attempt: between its `fork` event and the `forward` that
 * kept it (or anywhere on an attempt abandoned). The conversation does not go on from there: the
 * agent would pick its side quest up in the middle and answer again.
 */
export function insideAttempt(nodes: ReadonlyMap<string, TreeNodeWithChildren>, nodeId: string): boolean {
  for (let node = nodes.get(nodeId); node; node = node.parentId ? nodes.get(node.parentId) : undefined) {
    if (eventType(node) === 'forward') return false;
    if (isAttempt(node)) return true;
  }
  return false;
}

/** The first node of a subagent's attempt: the `fork` event it begins with. */
export function isAttempt(node: TreeNode): boolean {
  return eventType(node) === 'fork';
}

function eventType(node: TreeNode): unknown {
  return node.kind === 'event' && isRecord(node.payload) ? node.payload['type'] : undefined;
}
