import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TreeStore } from '@sweatpants/tree-store';
import { ClusterRedis } from '../redis/cluster-redis';
import { ConversationActors } from '../conversations/conversation-actors';
import { ConversationEvents } from '../conversations/conversation-events';
import { JOB_QUEUE, type JobCompleted, type JobQueue } from '../queue/job-queue';

/** Long enough for every process to have heard of a job; short enough not to pile up keys. */
const ANNOUNCE_CLAIM_MS = 10 * 60_000;

/**
 * What a compaction that moved HEAD means for the live conversation. Every api process hears of
 * every completed job (QueueEvents); one of them announces the new nodes and the HEAD move to the
 * room (the Redis adapter carries it to every process), and the process whose runner drives the
 * conversation reopens it on the new HEAD: that runner is stale (its next write would be a
 * conflict), and a new one re-issues the pending elicit, or the chat prompt at the new HEAD.
 */
@Injectable()
export class CompactionAnnouncer implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Compaction');
  private unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
    private readonly store: TreeStore,
    private readonly actors: ConversationActors,
    private readonly events: ConversationEvents,
    private readonly cluster: ClusterRedis,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.jobs.onCompleted((event) => {
      this.announce(event).catch((error: unknown) =>
        this.logger.warn(
          `after compaction ${event.id}: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  private async announce({ id, name, result }: JobCompleted): Promise<void> {
    if (name !== 'conversation.compact' || !result.reflog || !result.summaryNodeId) return;
    const { conversationId } = result;
    if (await this.cluster.claimOnce(`announced:${id}:${result.head}`, ANNOUNCE_CLAIM_MS)) {
      const path = await this.store.path(conversationId, result.head);
      if (path.ok) {
        const from = path.value.findIndex((n) => n.id === result.summaryNodeId);
        for (const node of from < 0 ? [] : path.value.slice(from))
          this.events.emit('node', { conversationId, node });
      }
      this.events.moved(conversationId, { head: result.head, reflog: result.reflog });
    }
    await this.actors.tellIfOpen(conversationId, { kind: 'compacted', summaryNodeId: result.summaryNodeId });
  }
}
