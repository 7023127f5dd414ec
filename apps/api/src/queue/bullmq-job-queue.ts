import { Logger } from '@nestjs/common';
import { COMPACTION_QUEUE, type CompactionState, type JobName, type JobPayloads } from '@sweatpants/domain';
import { Queue, QueueEvents, type Job, type JobState } from 'bullmq';
import { Redis } from 'ioredis';
import { closeRedis } from '../redis/close-redis';
import { withTrace } from '../tracing/job-spans';
import { isJobName, type JobResults } from './job-processors';
import {
  JOB_ATTEMPTS,
  JOB_BACKOFF_MS,
  KEEP_COMPLETED,
  KEEP_FAILED,
  type JobCompleted,
  type JobQueue,
  type JobView,
} from './job-queue';

type AnyJob = Job<JobPayloads[JobName], JobResults[JobName], JobName>;

/**
 * BullMQ on Redis. Job ids are the callers' (compactJobId), so BullMQ itself drops a second add of
 * a job it still holds. Each group's job ids are kept in a sorted set beside the queue, so listing a
 * conversation's compactions does not scan the queue. Completions arrive through QueueEvents (a
 * Redis stream), so every api process hears of jobs any worker finished.
 */
export class BullJobQueue implements JobQueue {
  readonly mode = 'redis';
  private readonly logger = new Logger('Jobs');
  private readonly queue: Queue<JobPayloads[JobName], JobResults[JobName], JobName>;
  private readonly redis: Redis;
  private events: QueueEvents | undefined;
  private readonly listeners = new Set<(event: JobCompleted) => void>();
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly prefix: string,
  ) {
    // BullMQ asks for maxRetriesPerRequest: null on connections it blocks on; harmless here.
    this.redis = new Redis(url, { maxRetriesPerRequest: null });
    this.redis.on('error', (error: Error) => this.logger.warn(`Redis: ${error.message}`));
    this.queue = new Queue(COMPACTION_QUEUE, {
      connection: this.redis,
      prefix,
      defaultJobOptions: {
        attempts: JOB_ATTEMPTS,
        backoff: { type: 'exponential', delay: JOB_BACKOFF_MS },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
      },
    });
    // The connection's own listener above reports what goes wrong; without one, BullMQ prints it.
    this.queue.on('error', () => undefined);
  }

  async add<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { jobId: string; group: string },
  ): Promise<void> {
    const existing = await this.queue.getJob(options.jobId);
    if (existing && (await existing.getState()) === 'failed') await existing.retry('failed');
    else if (!existing) await this.queue.add(name, withTrace(payload), { jobId: options.jobId });
    await this.redis.zadd(this.groupKey(options.group), Date.now(), options.jobId);
  }

  async schedule<N extends JobName>(
    name: N,
    payload: JobPayloads[N],
    options: { id: string; everyMs: number | null; group: string },
  ): Promise<void> {
    // A job scheduler is one Redis record per id, whichever process upserts it, and its next run is
    // one delayed job: several apis starting together still run each tick once.
    if (options.everyMs === null) await this.queue.removeJobScheduler(options.id);
    // BullMQ types a scheduler's id as a job name (its template's name defaults to it); ours differ.
    else
      await this.queue.upsertJobScheduler(
        options.id as JobName,
        { every: options.everyMs },
        { name, data: payload },
      );
  }

  async state(jobId: string): Promise<CompactionState | undefined> {
    return stateOf(await this.queue.getJobState(jobId));
  }

  async counts(): Promise<Record<string, number>> {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed');
  }

  async list(group: string, limit: number): Promise<JobView[]> {
    const ids = await this.redis.zrevrange(this.groupKey(group), 0, limit - 1);
    const views: JobView[] = [];
    const gone: string[] = [];
    for (const id of ids) {
      // The state first, then the job: a job read first and then found completed would carry
      // the return value it had while active (none), and a done job would list without its result.
      const state = stateOf(await this.queue.getJobState(id));
      const job = (await this.queue.getJob(id)) as AnyJob | undefined;
      if (!job || !state || !isJobName(job.name)) {
        gone.push(id);
        continue;
      }
      // Read back from Redis: its return value is what the processor of its name returned.
      views.push({
        id,
        name: job.name,
        state,
        ...(state === 'completed' ? { result: job.returnvalue } : {}),
        ...(state === 'failed' ? { error: job.failedReason } : {}),
      } as JobView);
    }
    // Jobs BullMQ removed after their retention leave the index too.
    if (gone.length > 0) await this.redis.zrem(this.groupKey(group), ...gone);
    return views;
  }

  onCompleted(listener: (event: JobCompleted) => void): () => void {
    this.listeners.add(listener);
    // The listener connects once Redis has answered: BullMQ cannot close a QueueEvents whose
    // connection never became ready, so one made while Redis is away would outlive close().
    if (this.redis.status === 'ready') this.events ??= this.listen();
    else this.redis.once('ready', () => (this.events ??= this.closed ? undefined : this.listen()));
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.redis.status === 'ready') {
      await this.events?.close();
      await this.queue.close();
    } else {
      // Redis is away: a graceful close would wait for it to return. The queue shares this.redis,
      // which is dropped below; the listener's close goes on in the background.
      void this.events?.close().catch(() => undefined);
    }
    await closeRedis(this.redis);
  }

  private listen(): QueueEvents {
    const events = new QueueEvents(COMPACTION_QUEUE, {
      connection: { url: this.url, maxRetriesPerRequest: null },
      prefix: this.prefix,
    });
    events.on('error', (error: Error) => this.logger.warn(`queue events: ${error.message}`));
    events.on('completed', ({ jobId, returnvalue }) => {
      void this.queue.getJob(jobId).then(
        (job) => {
          if (!job || !isJobName(job.name)) return;
          const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as
            JobResults[JobName] | undefined;
          if (result === undefined) return;
          const event = { id: jobId, name: job.name, result } as JobCompleted;
          for (const listener of this.listeners) listener(event);
        },
        (error: unknown) => this.logger.warn(`reading job ${jobId}: ${String(error)}`),
      );
    });
    return events;
  }

  private groupKey(group: string): string {
    return `${this.prefix}:${COMPACTION_QUEUE}:by-group:${group}`;
  }
}

/** BullMQ's states as PROTOCOL.md's four; undefined for a job that is gone. */
function stateOf(state: JobState | 'unknown'): CompactionState | undefined {
  switch (state) {
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'active':
      return 'active';
    case 'waiting':
    case 'delayed':
    case 'prioritized':
    case 'waiting-children':
      return 'waiting';
    case 'unknown':
      return undefined;
  }
}
