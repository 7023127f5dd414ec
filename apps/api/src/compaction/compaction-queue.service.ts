import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  compactJobId,
  type Compaction,
  type CompactionList,
  type CompactionTrigger,
} from '@sweatpants/domain';
import { OnAppEvent } from '../events/app-events';
import { JOB_QUEUE, type JobQueue, type JobView } from '../queue/job-queue';

/** How many of a conversation's compactions GET compactions lists. */
const LISTED = 50;

/**
 * Compactions as the api asks for them: one `conversation.compact` job per (conversation, HEAD),
 * whether a user asked (POST compact) or the runtime did (its threshold: the in-process event
 * `compaction.requested`, which this hears), and the list PROTOCOL.md's GET compactions returns.
 */
@Injectable()
export class CompactionQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('Compaction');

  constructor(@Inject(JOB_QUEUE) private readonly jobs: JobQueue) {}

  /**
   * Enqueues the compaction of the branch ending at `head`; the job's id, already queued or not.
   * `trigger` decides how much recent tail it keeps: a request (the default) a shorter one.
   */
  async request(input: {
    conversationId: string;
    head: string;
    requestedBy: string;
    trigger?: CompactionTrigger;
  }): Promise<string> {
    const jobId = compactJobId(input.conversationId, input.head);
    await this.jobs.add(
      'conversation.compact',
      { ...input, trigger: input.trigger ?? 'request' },
      { jobId, group: input.conversationId },
    );
    return jobId;
  }

  /** The runtime's request (`compaction.requested`): the agent itself asks, so the reflog names the compactor. */
  @OnAppEvent('compaction.requested')
  async requestCompaction(input: {
    conversationId: string;
    head: string;
    requestedBy?: string;
  }): Promise<void> {
    try {
      await this.request({
        ...input,
        requestedBy: input.requestedBy ?? 'agent:compactor',
        trigger: 'threshold',
      });
    } catch (error) {
      // Fire and forget (the port's contract): a queue that is down must not stop a turn.
      this.logger.warn(`could not request compaction of ${input.conversationId}: ${String(error)}`);
    }
  }

  /** The queue's own connections (BullMQ's and its listing's) close with the app. */
  async onApplicationShutdown(): Promise<void> {
    await this.jobs.close();
  }

  async list(conversationId: string): Promise<CompactionList> {
    const jobs = await this.jobs.list(conversationId, LISTED);
    return { items: jobs.map(compactionOf) };
  }
}

function compactionOf(job: JobView): Compaction {
  // A conversation's group holds its compactions only; gc runs are filed under their own.
  const result = job.name === 'conversation.compact' ? job.result : undefined;
  return {
    jobId: job.id,
    state: job.state,
    ...(result?.summaryNodeId ? { summaryNodeId: result.summaryNodeId } : {}),
    ...(result?.covers ? { covers: result.covers } : {}),
    ...(result?.reason ? { reason: result.reason } : {}),
    ...(job.error ? { error: job.error } : {}),
  };
}
