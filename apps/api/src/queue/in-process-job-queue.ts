import { Logger } from '@nestjs/common';
import type { CompactionState, JobName, JobPayloads } from '@sweatpants/domain';
import { withTrace } from '../tracing/job-spans';
import { PermanentJobError, runJob, type JobProcessors, type JobResults } from './job-processors';
import {
  JOB_ATTEMPTS,
  JOB_BACKOFF_MS,
  KEEP_COMPLETED,
  type JobCompleted,
  type JobOutcomeListener,
  type JobQueue,
  type JobView,
} from './job-queue';

interface LocalJob {
  id: string;
  name: JobName;
  payload: JobPayloads[JobName];
  group: string;
  state: CompactionState;
  attempts: number;
  result?: JobResults[JobName];
  error?: string;
  finishedAt?: number;
}

/**
 * The queue without Redis (DESIGN.md: `npm start` on a fresh machine): the same processors, job
 * ids, states, retries with exponential backoff and retention as BullJobQueue, one job at a time,
 * in this process. Jobs do not survive a restart; the runtime asks again when a branch is long.
 */
export class InProcessJobQueue implements JobQueue {
  readonly mode = 'in-process';
  private readonly logger = new Logger('Jobs');
  private readonly jobs = new Map<string, LocalJob>();
  private readonly listeners = new Set<(event: JobCompleted) => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** each schedule's interval, by id */
  private readonly schedules = new Map<string, NodeJS.Timeout>();
  private readonly stopping = new AbortController();
  /** the chain every job runs on, so one runs at a time */
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly processors: JobProcessors,
    private readonly backoffMs = JOB_BACKOFF_MS,
    private readonly onOutcome: JobOutcomeListener = () => undefined,
  ) {}

  async add<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { jobId: string; group: string },
  ): Promise<void> {
    this.forgetOld();
    const existing = this.jobs.get(options.jobId);
    if (existing && existing.state !== 'failed') return;
    const job: LocalJob = {
      id: options.jobId,
      name,
      payload: withTrace(payload),
      group: options.group,
      state: 'waiting',
      attempts: 0,
    };
    // Re-inserted so the map's order stays the order jobs were asked for.
    this.jobs.delete(options.jobId);
    this.jobs.set(options.jobId, job);
    this.enqueue(job);
  }

  async schedule<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { id: string; everyMs: number | null; group: string },
  ): Promise<void> {
    clearInterval(this.schedules.get(options.id));
    this.schedules.delete(options.id);
    if (options.everyMs === null) return;
    let tick = 0;
    const timer = setInterval(() => {
      tick += 1;
      void this.add(name, payload, { jobId: `${options.id}.${Date.now()}.${tick}`, group: options.group });
    }, options.everyMs);
    // A schedule alone does not keep the process up (a test, a shutdown).
    timer.unref();
    this.schedules.set(options.id, timer);
  }

  async state(jobId: string): Promise<CompactionState | undefined> {
    return this.jobs.get(jobId)?.state;
  }

  async counts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = { waiting: 0, active: 0, completed: 0, failed: 0 };
    for (const job of this.jobs.values()) counts[job.state] = (counts[job.state] ?? 0) + 1;
    return counts;
  }

  async list(group: string, limit: number): Promise<JobView[]> {
    this.forgetOld();
    return [...this.jobs.values()]
      .filter((job) => job.group === group)
      .reverse()
      .slice(0, limit)
      .map(
        (job) =>
          // A job's result is what the processor of its name returned.
          ({
            id: job.id,
            name: job.name,
            state: job.state,
            ...(job.result === undefined ? {} : { result: job.result }),
            ...(job.error === undefined ? {} : { error: job.error }),
          }) as JobView,
      );
  }

  onCompleted(listener: (event: JobCompleted) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops the retries not yet due and waits for the running job, as BullMQ's worker.close() does. */
  async close(): Promise<void> {
    this.stopping.abort();
    for (const timer of this.schedules.values()) clearInterval(timer);
    this.schedules.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await this.tail;
  }

  private enqueue(job: LocalJob): void {
    this.tail = this.tail.then(() => this.run(job));
  }

  private async run(job: LocalJob): Promise<void> {
    if (this.stopping.signal.aborted) return;
    job.state = 'active';
    job.attempts += 1;
    try {
      const result = await runJob(this.processors, job.name, job.payload, {
        jobId: job.id,
        attempt: job.attempts,
        signal: this.stopping.signal,
      });
      Object.assign(job, { state: 'completed', result, finishedAt: Date.now() });
      // The result is what the processor of the job's name returned.
      this.onOutcome(job.name, 'completed');
      const event = { id: job.id, name: job.name, result } as JobCompleted;
      for (const listener of this.listeners) listener(event);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const again = !(error instanceof PermanentJobError) && job.attempts < JOB_ATTEMPTS;
      this.logger.warn(`job ${job.id} failed (attempt ${job.attempts}): ${message}`);
      this.onOutcome(job.name, again ? 'retried' : 'failed');
      if (!again) {
        Object.assign(job, { state: 'failed', error: message, finishedAt: Date.now() });
        return;
      }
      job.state = 'waiting';
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          this.enqueue(job);
        },
        this.backoffMs * 2 ** (job.attempts - 1),
      );
      this.timers.add(timer);
    }
  }

  /** Retention as BullJobQueue's: finished jobs go after a week, the oldest first past the count. */
  private forgetOld(): void {
    const cutoff = Date.now() - KEEP_COMPLETED.age * 1000;
    let finished = [...this.jobs.values()].filter((j) => j.finishedAt !== undefined).length;
    for (const job of this.jobs.values()) {
      if (job.finishedAt === undefined) continue;
      if (job.finishedAt < cutoff || finished > KEEP_COMPLETED.count) {
        this.jobs.delete(job.id);
        finished -= 1;
      }
    }
  }
}
