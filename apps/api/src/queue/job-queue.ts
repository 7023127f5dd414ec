import type { CompactionState, JobName, JobPayloads } from '@sweatpants/domain';
import type { JobResults } from './job-processors';

/** Injection token of the api's JobQueue. */
export const JOB_QUEUE = Symbol('JobQueue');

/** A job as GET compactions shows it; `name` tells which result it carries. */
export type JobView<N extends JobName = JobName> = N extends JobName
  ? {
      id: string;
      name: N;
      state: CompactionState;
      result?: JobResults[N];
      /** why it failed, for a failed job */
      error?: string;
    }
  : never;

/** A job that finished, as every api process hears of it; `name` tells which result it carries. */
export type JobCompleted<N extends JobName = JobName> = N extends JobName
  ? { id: string; name: N; result: JobResults[N] }
  : never;

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
  /**
   * Runs a job every `everyMs` from now on, under the schedule's `id`: adding the same id again
   * (another process starting, a new interval) replaces it rather than adding a second; a null
   * `everyMs` removes it. Each run is a job of its own, filed under `group`.
   */
  schedule<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { id: string; everyMs: number | null; group: string },
  ): Promise<void>;
  /** one job's state; undefined once the queue no longer has it (removed, or lost with its process) */
  state(jobId: string): Promise<CompactionState | undefined>;
  /** how many jobs are in each state (waiting, active, delayed, completed and failed still kept) */
  counts(): Promise<Record<string, number>>;
  /** the group's jobs still kept, newest first */
  list(group: string, limit: number): Promise<JobView[]>;
  /** called on every completed job, whichever process ran it; returns the unsubscribe */
  onCompleted(listener: (event: JobCompleted) => void): () => void;
  close(): Promise<void>;
}

/** A job's end as the metrics count it: done, failed and to be tried again, or failed for good. */
export type JobOutcome = 'completed' | 'retried' | 'failed';
export type JobOutcomeListener = (job: JobName, outcome: JobOutcome) => void;

/** Retries of a failed job, and how long finished jobs stay listable. */
export const JOB_ATTEMPTS = 3;
export const JOB_BACKOFF_MS = 1_000;
/** finished jobs are kept a week (at most this many), failed ones a month, for GET compactions */
export const KEEP_COMPLETED = { age: 7 * 24 * 3600, count: 10_000 };
export const KEEP_FAILED = { age: 30 * 24 * 3600 };
