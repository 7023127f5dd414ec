import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { GC_JOB_GROUP, GC_SCHEDULE_ID } from '@sweatpants/domain';
import { JOB_QUEUE, type JobQueue } from '../queue/job-queue';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/**
 * Puts gc on its schedule at start (GC_EVERY_MINUTES, daily by default): a BullMQ job scheduler
 * when Redis is configured (one per deployment, however many apis upsert it; the workers run it),
 * else a timer in this process. GC_EVERY_MINUTES=off takes the schedule away.
 */
@Injectable()
export class GcScheduler implements OnApplicationBootstrap {
  private readonly logger = new Logger('Gc');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    const { everyMinutes, policy, dryRun } = this.config.gc;
    const everyMs = everyMinutes === null ? null : everyMinutes * 60_000;
    // Not awaited: with Redis away the api still starts, and BullMQ sends it when Redis returns.
    this.queue
      .schedule(
        'tree.gc',
        { dryRun: false, requestedBy: 'schedule' },
        { id: GC_SCHEDULE_ID, everyMs, group: GC_JOB_GROUP },
      )
      .then(
        () =>
          this.logger.log(
            everyMinutes === null
              ? 'gc: no schedule (GC_EVERY_MINUTES=off)'
              : `gc: every ${everyMinutes} minutes (${this.queue.mode}), reflog kept ${policy.reachableDays} days ` +
                  `(${policy.unreachableDays} for discarded branches)${dryRun ? ', dry run' : ''}`,
          ),
        (error: unknown) => this.logger.warn(`gc: could not schedule: ${String(error)}`),
      );
  }
}
