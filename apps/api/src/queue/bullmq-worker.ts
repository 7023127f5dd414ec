import { Logger } from '@nestjs/common';
import { COMPACTION_QUEUE, type JobName, type JobPayloads } from '@sweatpants/domain';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { isJobName, PermanentJobError, runJob, type JobProcessors, type JobResults } from './job-processors';
import type { JobOutcomeListener } from './job-queue';

export interface WorkerSettings {
  url: string;
  prefix: string;
  /** how long a job's lock lasts; a worker that dies mid-job loses it after this, and the stalled check (run as often) hands the job on */
  lockMs: number;
  concurrency?: number;
  /** told of each job's end (the metrics) */
  onOutcome?: JobOutcomeListener;
}

/**
 * A BullMQ worker running `processors`. BullMQ renews the job's lock while the processor runs; a
 * worker killed mid-job stops renewing, and another worker's stalled check moves the job back to
 * waiting (once: a job that stalls twice fails), so it completes once. `close()` lets the running
 * jobs finish (SIGTERM).
 */
export type JobWorkerHandle = Worker<JobPayloads[JobName], JobResults[JobName], JobName>;

export function startBullWorker(processors: JobProcessors, settings: WorkerSettings): JobWorkerHandle {
  const logger = new Logger('Worker');
  const worker: JobWorkerHandle = new Worker<JobPayloads[JobName], JobResults[JobName], JobName>(
    COMPACTION_QUEUE,
    async (
      job: Job<JobPayloads[JobName], JobResults[JobName], JobName>,
      _token?: string,
      signal?: AbortSignal,
    ) => {
      if (!isJobName(job.name)) throw new UnrecoverableError(`no processor for job '${String(job.name)}'`);
      try {
        return await runJob(processors, job.name, job.data, {
          jobId: job.id ?? '',
          attempt: job.attemptsMade + 1,
          signal: signal ?? new AbortController().signal,
        });
      } catch (error) {
        if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
        throw error;
      }
    },
    {
      connection: { url: settings.url, maxRetriesPerRequest: null },
      prefix: settings.prefix,
      concurrency: settings.concurrency ?? 2,
      lockDuration: settings.lockMs,
      stalledInterval: settings.lockMs,
      maxStalledCount: 1,
    },
  );
  worker.on('error', (error: Error) => logger.warn(`worker: ${error.message}`));
  worker.on('failed', (job, error) => {
    logger.warn(`job ${job?.id ?? '?'} failed: ${error.message}`);
    if (!job || !isJobName(job.name)) return;
    // BullMQ counts the attempt before 'failed'; an unrecoverable error is not tried again.
    const again = !(error instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1);
    settings.onOutcome?.(job.name, again ? 'retried' : 'failed');
  });
  worker.on('stalled', (jobId) => logger.warn(`job ${jobId} stalled: its worker stopped; running it again`));
  worker.on('completed', (job) => {
    logger.log(`job ${job.id ?? '?'} completed`);
    if (isJobName(job.name)) settings.onOutcome?.(job.name, 'completed');
  });
  return worker;
}
