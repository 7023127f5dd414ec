import type { Runner } from '@sweatpants/agent-runtime/host';
import type {
  Conversation,
  ConversationRecord,
  ConversationStatus,
  ListedConversation,
} from '@sweatpants/domain';

/**
 * PROTOCOL.md's Conversation: the stored record plus what its runner is doing, and `archivedAt`, so
 * a list that holds archived ones (the owner's Archived, the admin's) shows them as such. With no
 * runner open (a listing does not open one per row: that would start turns just to list them), it
 * is `idle` with nothing pending.
 */
export function conversationView(
  record: ConversationRecord,
  runner: Runner | undefined,
  model: Conversation['model'],
): ListedConversation {
  return {
    id: record.id,
    agent: record.agent,
    title: record.title,
    ownerId: record.ownerId,
    // The runner's HEAD, read with its status and pending question: the record was read before,
    // and a turn that ended in between would pair a new chat prompt with the old HEAD.
    head: (runner && !runner.stale ? runner.head : undefined) ?? record.head,
    status: statusOf(runner),
    pendingElicit: runner?.pending()[0] ?? null,
    pendingElicits: runner?.pending() ?? [],
    model,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    archivedAt: record.archivedAt,
  };
}

/** PROTOCOL.md's status of a conversation whose runner is `runner` (none open: idle). */
export function statusOf(runner: Runner | undefined): ConversationStatus {
  if (!runner) return 'idle';
  if (runner.status === 'running') return 'running';
  return runner.pending().length > 0 ? 'waiting' : 'idle';
}
