import type { NodeDraft, Photo, TreeNode } from './node';
import type { Result } from './result';
import type { QueuedMessage } from './wire/queued-message';

/**
 * The agent runtime's view of storage, declared here so that both sides import it and neither
 * imports the other (DESIGN.md's dependency rule): libs/tree-store implements it (`StorePort`),
 * and the runtime's InMemoryConversationPort does for tests and the terminal chat. Every write
 * names the HEAD the runner last saw, so a runner whose conversation was moved under it (a rewind
 * from another tab) gets a conflict, never a fork.
 */
export interface ConversationPort {
  /**
   * The conversation's whole path, root → HEAD. The runner opens on it only when the summary
   * `pathFromSummary` begins with does not keep the agent's state
   * (written before summaries kept states, or for another version of the agent's reducer): then
   * the folds need what lies above it.
   */
  path(conversationId: string): Promise<Result<TreeNode[], PortError>>;
  /**
   * What the runner opens on: HEAD's path from its latest summary, from the first of a stack of
   * summaries when compactions stacked them (each summarises only what followed the one before),
   * from the root when there is none. A summary stands for what it covers: the state and mode it
   * keeps and its text are what the agent needs of everything above it. Its cost must not grow
   * with the depth above the summaries (the tree store's `pathFromSummary`).
   */
  pathFromSummary(conversationId: string): Promise<Result<TreeNode[], PortError>>;
  /**
   * The nodes an append of `drafts` under `parent` would store (ids, depths, times), named without
   * writing anything: the runtime goes on from them while their write is still to come. A draft
   * the store would refuse is refused here, with the same error.
   */
  build(input: {
    conversationId: string;
    parent: TreeNode;
    nodes: NodeDraft[];
  }): Result<TreeNode[], PortError>;
  /**
   * Stores runs of nodes (chains from `build`, each under the one before, the first under
   * `expectedHead`) in one write: each run moves HEAD to its last node with its own reflog row
   * (a run is one author's, so the reflog says who moved HEAD), and all land or none. Refused with
   * a conflict, writing nothing, when HEAD is no longer `expectedHead`.
   */
  append(input: {
    conversationId: string;
    expectedHead: string;
    runs: AppendRun[];
  }): Promise<Result<{ head: string }, PortError>>;
  /**
   * Leaves the branch HEAD is on for a node above it (seed 004's back: a subagent's attempt
   * abandoned): stores `nodes`, a chain from `build` under that node, and moves HEAD to the last of
   * them under `expectedHead`, in one write with reflog action `return`. The branch left stays in
   * the tree, recoverable from the reflog; writing the nodes with the move means a crash never
   * leaves HEAD back at the node with nothing to say why.
   */
  returnTo(input: {
    conversationId: string;
    nodes: TreeNode[];
    expectedHead: string;
  }): Promise<Result<{ head: string }, PortError>>;
  /**
   * Asks for the branch to be compacted (DESIGN.md: a squash-and-rebase run as a job). Fire and
   * forget: the runner goes on, and the job rebases whatever it appends meanwhile.
   */
  requestCompaction(input: { conversationId: string; head: string }): Promise<void>;
  /** Messages sent while a turn works, stored beside the tree until the runner takes them. */
  readonly queue: QueuedMessages;
}

/** One run of a port append: one author's nodes, and the reflog action of the HEAD move. */
export interface AppendRun {
  nodes: TreeNode[];
  /** the reflog action: `cancel` for a cancel node; `append` otherwise */
  action?: 'append' | 'cancel';
}

/**
 * The store of queued messages (the tree store's `MessageQueue`): written the moment a message
 * arrives, read oldest first, removed when taken or withdrawn. `remove` is conditional: false when
 * the message no longer waits.
 */
export interface QueuedMessages {
  enqueue(input: {
    conversationId: string;
    text: string;
    photos?: readonly Photo[];
    authorId: string;
  }): Promise<QueuedMessage>;
  waiting(conversationId: string): Promise<QueuedMessage[]>;
  remove(conversationId: string, id: string): Promise<boolean>;
}

/** Why the store refused: HEAD moved (`conflict`, with HEAD now), no such conversation, or a bad write. */
export interface PortError {
  code: 'conflict' | 'not_found' | 'invalid';
  message: string;
  /** with `conflict`: where HEAD is now */
  head?: string;
}
