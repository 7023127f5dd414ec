import type { TreeNode } from '@sweatpants/domain';

import type { ConversationReader } from '../core/api.service';

/** The range of the path a compaction summary stands for (its payload's `covers`). */
export interface Covers {
  fromId: string;
  toId: string;
}

/**
 * The nodes a summary covers, from `fromId` to `toId`, read off the conversation's tree (the
 * compacted nodes stay in it); null when the tree does not hold them all (not loaded yet).
 */
export function coveredFromTree(tree: ReadonlyMap<string, TreeNode>, covers: Covers): TreeNode[] | null {
  const nodes: TreeNode[] = [];
  let id: string | null = covers.toId;
  while (id !== null) {
    const node = tree.get(id);
    if (!node) return null;
    nodes.push(node);
    if (id === covers.fromId) return nodes.reverse();
    id = node.parentId;
  }
  return null;
}

/**
 * The nodes a summary covers, asked of the api: the path at `toId`, from `fromId` on. HEAD does not
 * move. Rejects with the api's error, or when `fromId` is not on that path.
 */
export async function loadCovered(
  reader: ConversationReader,
  conversationId: string,
  covers: Covers,
): Promise<TreeNode[]> {
  const { nodes } = await reader.path(conversationId, covers.toId);
  const from = nodes.findIndex((node) => node.id === covers.fromId);
  if (from === -1) throw new Error('the start of the summarised range is not on the path to its end');
  return nodes.slice(from);
}

/**
 * A summary's text as the chat shows it under its marker. The offline model's summary opens with a
 * count of nodes by kind ("Offline summary of 106 nodes (8 user, 44 event…) from … to …."): the
 * tree's bookkeeping, not something to read in a chat, so that sentence is said in words.
 */
export function summaryText(text: string): string {
  return text.replace(
    /^Offline summary of \d+ nodes \([^)]*\)(?: from \S+ to \S+)?\.\s*/,
    'A summary written offline. ',
  );
}
