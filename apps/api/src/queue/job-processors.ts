import { JOB_NAMES, type JobName, type JobPayloads, type ReflogEntry } from '@sweatpants/domain';
import { jobSpan } from '../tracing/job-spans';

/** What a finished compaction job records (its BullMQ return value): JSON, so it survives Redis. */
export interface CompactionOutcome {
  conversationId: string;
  /** the summary on HEAD's path for the range; absent when there was nothing to compact */
  summaryNodeId?: string;
  covers?: { fromId: string; toId: string; count: number };
  /** HEAD after the job */
  head: string;
  /** the `compact` reflog entry, or null when HEAD did not move (nothing to do, or already done) */
  reflog: ReflogEntry | null;
  rebased: number;
  /** why nothing moved, when nothing did (GET compactions shows it as `reason`) */
  reason?: string;
}

/** What a finished gc job records: its `gc_runs` row and what went (or, dry, would have). */
export interface GcOutcome {
  runId: string;
  dryRun: boolean;
  conversations: number;
  reflogEntries: number;
  nodes: number;
  /** what each sweep after node gc removed (gc.processor.ts GcSweep), by its name */
  swept: Record<string, number>;
}

/** Each job name tied to its result, as libs/domain ties it to its payload. */
export interface JobResults {
  'conversation.compact': CompactionOutcome;
  'tree.gc': GcOutcome;
}

/** What a processor may learn about the run it is in. */
export interface JobRun {
  jobId: string;
  /** 1 for the first attempt */
  attempt: number;
  /** aborted when the worker shuts down mid-job */
  signal: AbortSignal;
}

/** One processor per job name (STYLE.md, jobs). */
export type JobProcessors = {
  [N in JobName]: (payload: JobPayloads[N], run: JobRun) => Promise<JobResults[N]>;
};

/**
 * A job that must not be retried: its outcome is decided (HEAD left the branch, the conversation
 * is gone). Both queues turn it into a failed job at once.
 */
export class PermanentJobError extends Error {
  override readonly name = 'PermanentJobError';
}

/**
 * Fails at start when a job name has no processor: the types catch it at compile time, this catches
 * a registry assembled at run time (or a JOB_NAMES entry added without one).
 */
export function checkProcessors(processors: Partial<Record<JobName, unknown>>): JobProcessors {
  const missing = JOB_NAMES.filter((name) => typeof processors[name] !== 'function');
  if (missing.length > 0) throw new Error(`no processor for job ${missing.map((n) => `'${n}'`).join(', ')}`);
  return processors as JobProcessors;
}

/** Runs a job by name with its processor, as a span of the trace that asked for it (if any). */
export function runJob<N extends JobName>(
  processors: JobProcessors,
  name: N,
  payload: JobPayloads[N],
  run: JobRun,
): Promise<JobResults[N]> {
  const processor = processors[name] as JobProcessors[N];
  return jobSpan(name, run.jobId, payload, () => processor(payload, run));
}

/** Whether a job name read back from Redis is one of ours. */
export function isJobName(name: string): name is JobName {
  return (JOB_NAMES as readonly string[]).includes(name);
}
