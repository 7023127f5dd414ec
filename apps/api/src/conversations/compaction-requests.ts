import { Injectable, Logger } from '@nestjs/common';

/** Enqueues a compaction of the branch ending at `head`; fire and forget, as the runtime's port says. */
export interface CompactionRequestHandler {
  requestCompaction(input: { conversationId: string; head: string; requestedBy?: string }): Promise<void>;
}

/**
 * Where a conversation's compaction requests go (the ConversationPort's `requestCompaction`, when
 * a branch grows past its agent's budget). Conversations own this port; the compaction module,
 * above them, connects its queue as it starts. Until one is connected (a process built without
 * compaction) a request is logged and dropped: the branch just stays long.
 */
@Injectable()
export class CompactionRequests implements CompactionRequestHandler {
  private readonly logger = new Logger('Compaction');
  private handler: CompactionRequestHandler | null = null;

  connect(handler: CompactionRequestHandler): void {
    this.handler = handler;
  }

  async requestCompaction(input: {
    conversationId: string;
    head: string;
    requestedBy?: string;
  }): Promise<void> {
    if (this.handler) return this.handler.requestCompaction(input);
    this.logger.warn(
      `no compaction is wired: not compacting ${input.conversationId} at ${input.head.slice(0, 12)}`,
    );
  }
}
