/**
 * Injection token for where the runtime's compaction requests go (the ConversationPort's
 * `requestCompaction`, when a branch grows past the agent's threshold). The compaction module
 * provides it; the runner registry's port forwards to it.
 */
export const COMPACTION_REQUESTS = Symbol('CompactionRequests');

/** Enqueues a compaction of the branch ending at `head`; fire and forget, as the port's contract says. */
export interface CompactionRequests {
  requestCompaction(input: { conversationId: string; head: string; requestedBy?: string }): Promise<void>;
}
