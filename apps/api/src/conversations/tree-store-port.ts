import { Logger } from '@nestjs/common';
import type { ConversationPort, PortError } from '@sweatpants/agent-runtime/host';
import { err, ok, type Result, type TreeNode } from '@sweatpants/domain';
import { buildNodes, type StoreError, type TreeStore } from '@sweatpants/tree-store';
import type { CompactionRequestHandler } from './compaction-requests';
import type { ConversationEvents } from './conversation-events';

/**
 * The agent runtime's storage, on the tree store: every write is a compare-and-swap on the HEAD
 * the runner saw, and every write is announced to the conversation's sockets (`node` events, then
 * `head` with its reflog entry) as it lands, so a client sees what the agent does as it does it.
 */
export class TreeStorePort implements ConversationPort {
  private readonly logger = new Logger('TreeStorePort');

  constructor(
    private readonly store: TreeStore,
    private readonly events: ConversationEvents,
    private readonly compaction: CompactionRequestHandler,
    /** who moves HEAD when the agent does (`agent:<name>`) */
    private readonly agentActor: string,
  ) {}

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

  async requestCompaction(input: { conversationId: string; head: string }): Promise<void> {
    try {
      await this.compaction.requestCompaction({ ...input, requestedBy: this.agentActor });
    } catch (error) {
      // Fire and forget (the port's contract): a failed request costs a longer context, not a turn.
      this.logger.warn(
        `compaction request failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
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
