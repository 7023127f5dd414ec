import { Logger } from '@nestjs/common';
import type { ConversationPort, PortError, QueuedMessages } from '@sweatpants/agent-runtime/host';
import { err, ok, type Result, type TreeNode } from '@sweatpants/domain';
import { buildNodes, type StoreError, type TreeStore } from '@sweatpants/tree-store';
import type { AppEvents } from '../events/app-events';
import type { ConversationEvents } from './conversation-events';

/**
 * The agent runtime's storage, on the tree store: every write is a compare-and-swap on the HEAD
 * the runner saw, and every write is announced to the conversation's sockets (`node` events, then
 * `head` with its reflog entry) as it lands, so a client sees what the agent does as it does it.
 */
export class TreeStorePort implements ConversationPort {
  private readonly logger = new Logger('TreeStorePort');
  readonly queue: QueuedMessages;

  constructor(
    private readonly store: TreeStore,
    private readonly events: ConversationEvents,
    /** where a compaction request is said (`compaction.requested`, which the compaction queue hears) */
    private readonly appEvents: AppEvents,
    /** who moves HEAD when the agent does (`agent:<name>`) */
    private readonly agentActor: string,
  ) {
    this.queue = store.queue;
  }

  async path(conversationId: string): Promise<Result<TreeNode[], PortError>> {
    const path = await this.store.path(conversationId, 'HEAD');
    return path.ok ? ok(path.value) : err(portError(path.error));
  }

  async pathFromSummary(conversationId: string): Promise<Result<TreeNode[], PortError>> {
    const path = await this.store.pathFromSummary(conversationId, 'HEAD');
    return path.ok ? ok(path.value) : err(portError(path.error));
  }

  build(input: Parameters<ConversationPort['build']>[0]): Result<TreeNode[], PortError> {
    const built = buildNodes(input.conversationId, input.parent, input.nodes);
    return built.ok ? built : err(portError(built.error));
  }

  async append(
    input: Parameters<ConversationPort['append']>[0],
  ): Promise<Result<{ head: string }, PortError>> {
    const written = await this.store.appendBuilt({
      conversationId: input.conversationId,
      nodes: input.nodes,
      expectedHead: input.expectedHead,
      action: input.action ?? 'append',
      // A user's message (or their cancel) is their move; everything else the agent's.
      actorId: input.nodes.at(-1)?.authorId ?? this.agentActor,
    });
    if (!written.ok) return err(portError(written.error));
    this.events.appended(input.conversationId, written.value);
    return ok({ head: written.value.head });
  }

  /**
   * Fire and forget (the port's contract): a request nobody hears (a process built without
   * compaction) or that fails costs a longer context, not a turn; either is logged.
   */
  async requestCompaction(input: { conversationId: string; head: string }): Promise<void> {
    if (!this.appEvents.heard('compaction.requested')) {
      this.logger.warn(
        `no compaction is wired: not compacting ${input.conversationId} at ${input.head.slice(0, 12)}`,
      );
      return;
    }
    await this.appEvents.emitAsync('compaction.requested', { ...input, requestedBy: this.agentActor });
  }
}

function portError(error: StoreError): PortError {
  switch (error.code) {
    case 'conflict':
      return { code: 'conflict', message: error.message, head: error.head };
    case 'not_found':
      return { code: 'not_found', message: error.message };
    case 'invalid_request':
      return { code: 'invalid', message: error.message };
  }
}
