import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CLUSTER_CONFIG, type ClusterConfig } from '../cluster/cluster-config';
import { startBullWorker, type JobWorkerHandle } from './bullmq-worker';
import { JOB_PROCESSORS } from './compaction.providers';
import type { JobProcessors } from './job-processors';

/** Whether this process runs a BullMQ worker: the worker entry always; an api unless WORKER=off. */
export const RUN_WORKER = Symbol('RunWorker');

/**
 * The BullMQ worker of this process, when Redis is configured and this process runs one. Started
 * once the application is up and closed at shutdown, letting a running job finish (SIGTERM).
 */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private worker: JobWorkerHandle | undefined;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLUSTER_CONFIG) private readonly cluster: ClusterConfig,
    @Inject(JOB_PROCESSORS) private readonly processors: JobProcessors,
    @Inject(RUN_WORKER) private readonly runWorker: boolean,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const url = this.config.redisUrl;
    if (url === undefined || !this.runWorker) return;
    this.worker = startBullWorker(this.processors, {
      url,
      prefix: this.cluster.queuePrefix,
      lockMs: this.cluster.jobLockMs,
    });
    await this.worker.waitUntilReady();
    this.logger.log('compaction worker running');
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.worker) return;
    await this.worker.close();
    this.logger.log('compaction worker closed');
  }
}
