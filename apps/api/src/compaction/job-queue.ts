import type { CompactionState, JobName, JobPayloads } from '@sweatpants/domain';
import type { JobResults } from './job-processors';

/** Injection token of the api's JobQueue. */
export const JOB_QUEUE = Symbol('JobQueue');

/** A job as GET compactions shows it. */
export interface JobView<N extends JobName = JobName> {
  id: string;
  name: N;
  state: CompactionState;
  result?: JobResults[N];
  /** why it failed, for a failed job */
  error?: string;
}

/** A job that finished, as every api process hears of it. */
export interface JobCompleted<N extends JobName = JobName> {
  id: string;
  name: N;
  result: JobResults[N];
}

/**
 * Where jobs go: BullMQ on Redis (./bullmq-job-queue) or, without Redis, a queue in this process
 * (./in-process-job-queue) that runs the same processors with the same ids and states.
 */
export interface JobQueue {
  readonly mode: 'redis' | 'in-process';
  /**
   * Adds a job unless one with `jobId` is already known (queued, running or kept after it
   * completed); a failed one is tried again. `group` files it for `list` (a conversation id).
   */
  add<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { jobId: string; group: string },
  ): Promise<void>;
  /** the group's jobs still kept, newest first */
  list(group: string, limit: number): Promise<JobView[]>;
  /** called on every completed job, whichever process ran it; returns the unsubscribe */
  onCompleted(listener: (event: JobCompleted) => void): () => void;
  close(): Promise<void>;
}

/** Retries of a failed job, and how long finished jobs stay listable. */
export const JOB_ATTEMPTS = 3;
export const JOB_BACKOFF_MS = 1_000;
/** finished jobs are kept a week (at most this many), failed ones a month, for GET compactions */
export const KEEP_COMPLETED = { age: 7 * 24 * 3600, count: 10_000 };
export const KEEP_FAILED = { age: 30 * 24 * 3600 };
