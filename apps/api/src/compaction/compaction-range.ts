import type { TreeNode } from '@sweatpants/domain';

/** A run of HEAD's path to replace by one summary. */
export interface CompactionRange {
  fromId: string;
  toId: string;
  nodes: TreeNode[];
}

/**
 * The range a compaction squashes on `path` (root → the requested HEAD): everything after the
 * last summary (or the root) up to the last `user` message, which with its turn stays as it is.
 * Ending right before a user message keeps whole turns together, so no tool call is summarised
 * away from its result. Null when there is no such range (one turn since the last summary).
 */
export function compactionRange(path: readonly TreeNode[]): CompactionRange | null {
  const lastSummary = path.findLastIndex((n) => n.kind === 'summary');
  const start = Math.max(lastSummary + 1, 1);
  const cut = path.findLastIndex((n, i) => i > start && n.kind === 'user');
  if (cut < 0) return null;
  const nodes = path.slice(start, cut);
  const first = nodes[0];
  const last = nodes.at(-1);
  if (!first || !last) return null;
  return { fromId: first.id, toId: last.id, nodes };
}

/** The summary on `path` that replaced exactly this range, if one does. */
export function summaryOf(
  path: readonly TreeNode[],
  range: { fromId: string; toId: string },
): TreeNode<'summary'> | undefined {
  return path.find(
    (n): n is TreeNode<'summary'> =>
      n.kind === 'summary' &&
      (n as TreeNode<'summary'>).payload.covers.fromId === range.fromId &&
      (n as TreeNode<'summary'>).payload.covers.toId === range.toId,
  );
}
