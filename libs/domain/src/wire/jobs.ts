/**
 * Background jobs: each job name tied to its payload (STYLE.md, jobs), so a producer cannot send a
 * payload its processor does not expect, and the worker fails at start if a name has no processor.
 */
export interface JobPayloads {
  /** squash the branch ending at `head` into a summary and rebase the tail (DESIGN.md, compaction) */
  'conversation.compact': {
    conversationId: string;
    head: string;
    requestedBy: string;
    /**
     * Who wanted it: `request` (POST compact) keeps a short recent tail, `threshold` (the runner,
     * its branch grown long) keeps the last turn. Absent in jobs queued before it existed: threshold.
     */
    trigger?: CompactionTrigger;
  };
  /**
   * Garbage collection of every conversation with the retention policy (DESIGN.md, gc): on the
   * schedule (`requestedBy: 'schedule'`) or when an admin asks (their user id).
   */
  'tree.gc': {
    dryRun: boolean;
    requestedBy: string;
  };
}
/** Why a compaction runs: someone asked (POST compact), or the runner's branch grew past its threshold. */
export type CompactionTrigger = 'request' | 'threshold';
export type JobName = keyof JobPayloads;
export const JOB_NAMES = ['conversation.compact', 'tree.gc'] as const satisfies readonly JobName[];

/** One job per (conversation, head) at a time: BullMQ drops an add whose id is already queued (custom ids may not hold colons). */
export const compactJobId = (conversationId: string, head: string): string =>
  `compact.${conversationId}.${head}`;

export const COMPACTION_QUEUE = 'compaction';

/** The gc schedule's id: one schedule however many processes start (BullMQ upserts it by id). */
export const GC_SCHEDULE_ID = 'tree-gc';
/** The group gc runs are filed under in the job queue. */
export const GC_JOB_GROUP = 'gc';
