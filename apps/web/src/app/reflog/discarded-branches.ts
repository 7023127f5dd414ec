import type { ReflogEntry, TreeNode } from '@sweatpants/domain';

import { isAttempt } from '../conversation/branch-tip';

/** The moves that leave where the conversation was for another branch (an append or a stop do not). */
const LEAVING: ReadonlySet<ReflogEntry['action']> = new Set(['rewind', 'edit', 'regenerate', 'recover']);

/** Which reflog entries offer Recover, and which of them brings back the branch just left. */
export interface DiscardedBranches {
  /**
   * The ids of the entries that offer Recover: per discarded branch, only its newest entry (where
   * the person last was on it). Every older step of that branch would recover less of it, so a
   * button on each of them says nothing more and hides the one that matters.
   */
  readonly recoverable: ReadonlySet<string>;
  /** The recoverable entry of the branch the latest move left (a rewind, an edit…), if any. */
  readonly justLeft: string | null;
}

/**
 * Groups the discarded entries by branch. A branch is named by its first node off the current
 * path (the node whose parent is still on it); a node the page does not know is a branch of its
 * own, so an unknown tree never hides a Recover.
 *
 * @param entries newest first, as the api pages them
 * @param nodes the conversation's tree, by id
 * @param onPath the ids on the current HEAD's path; null while unknown (then nothing is discarded)
 * @example
 * // rewound from 44 to 22: the append that ended at 44 is the branch just left
 * discardedBranches(entries, tree, onPath).justLeft; // → that append's id
 */
export function discardedBranches(
  entries: readonly ReflogEntry[],
  nodes: ReadonlyMap<string, TreeNode>,
  onPath: ReadonlySet<string> | null,
): DiscardedBranches {
  if (onPath === null) return { recoverable: new Set(), justLeft: null };
  const branchOf = (nodeId: string): string | null => {
    if (onPath.has(nodeId)) return null;
    let id = nodeId;
    // Bounded by the tree's size: a parent chain has no cycles, but a bad listing must not hang.
    for (let hops = 0; hops <= nodes.size; hops++) {
      const parent = nodes.get(id)?.parentId;
      if (!parent || onPath.has(parent)) return id;
      id = parent;
    }
    return id;
  };
  // A subagent's attempt left behind is the agent's own try, not a branch the person left: going
  // back onto it would pick its side quest up in the middle, so it offers no Recover.
  const attempt = (branch: string) => {
    const first = nodes.get(branch);
    return first !== undefined && isAttempt(first);
  };
  const newestOf = new Map<string, string>();
  for (const entry of entries) {
    const branch = branchOf(entry.newHead);
    if (branch !== null && !newestOf.has(branch) && !attempt(branch)) newestOf.set(branch, entry.id);
  }
  // The latest move that leaves a branch for another; if it was taken back since, nothing is "just left".
  const left = entries.find((entry) => LEAVING.has(entry.action));
  const leftBranch = left?.oldHead ? branchOf(left.oldHead) : null;
  return {
    recoverable: new Set(newestOf.values()),
    justLeft: leftBranch === null ? null : (newestOf.get(leftBranch) ?? null),
  };
}
