import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CLUSTER_CONFIG, type ClusterConfig } from '../config/cluster-config';
import { startBullWorker, type JobWorkerHandle } from './bullmq-worker';
import { Metrics } from '../observability/metrics';
import { JobProcessorRegistry } from './job-processor-registry';

/**
 * The BullMQ worker of this process, when Redis is configured and this process runs one. Started
 * once the application is up and closed at shutdown, letting a running job finish (SIGTERM).
 */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Worker');
  private worker: JobWorkerHandle | undefined;
  private ready = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLUSTER_CONFIG) private readonly cluster: ClusterConfig,
    private readonly registry: JobProcessorRegistry,
    private readonly metrics: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    const url = this.config.redisUrl;
    // The worker entry always runs one; an api unless WORKER=off.
    if (url === undefined || this.cluster.worker === 'off') return;
    this.worker = startBullWorker(this.registry.processors, {
      url,
      prefix: this.cluster.queuePrefix,
      lockMs: this.cluster.jobLockMs,
      onOutcome: (job, outcome) => this.metrics.jobFinished(job, outcome),
    });
    // Not awaited: with Redis away the process still starts, and BullMQ connects when it returns.
    this.worker.waitUntilReady().then(
      () => {
        this.ready = true;
        this.logger.log('compaction worker running');
      },
      (error: unknown) => this.logger.warn(`compaction worker not ready: ${String(error)}`),
    );
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.worker) return;
    // A worker that never reached Redis has no job to finish, and a graceful close would wait
    // for Redis to return: it is closed at once.
    await this.worker.close(!this.ready);
    this.logger.log('compaction worker closed');
  }
}
