import type { NodeDraft, Result, TreeNode } from '@sweatpants/domain';

/**
 * The agent runtime's view of storage. The runtime never imports the tree store (DESIGN.md's
 * dependency rule); the api hands it an implementation of this port backed by the store.
 */
export interface ConversationPort {
  /** the conversation's context: the nodes root → HEAD */
  path(conversationId: string): Promise<Result<TreeNode[], { code: string; message: string }>>;
  /** appends under HEAD with compare-and-swap on the HEAD the runner last saw */
  append(
    conversationId: string,
    nodes: NodeDraft[],
    expectedHead: string,
  ): Promise<Result<{ nodes: TreeNode[]; head: string }, { code: string; message: string; head?: string }>>;
}
