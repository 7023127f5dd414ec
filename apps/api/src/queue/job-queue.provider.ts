import { Logger, type Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { CLUSTER_CONFIG, type ClusterConfig } from '../config/cluster-config';
import { Metrics } from '../observability/metrics';
import { BullJobQueue } from './bullmq-job-queue';
import { InProcessJobQueue } from './in-process-job-queue';
import { JobProcessorRegistry } from './job-processor-registry';
import { JOB_QUEUE, type JobQueue } from './job-queue';

/** BullMQ when REDIS_URL is set, else the in-process queue running the same processors. */
export const jobQueueProvider: Provider = {
  provide: JOB_QUEUE,
  inject: [APP_CONFIG, CLUSTER_CONFIG, JobProcessorRegistry, Metrics],
  useFactory: (
    config: AppConfig,
    cluster: ClusterConfig,
    registry: JobProcessorRegistry,
    metrics: Metrics,
  ): JobQueue => {
    let queue: JobQueue;
    if (config.redisUrl !== undefined) queue = new BullJobQueue(config.redisUrl, cluster.queuePrefix);
    else {
      new Logger('Jobs').log(
        'REDIS_URL unset: compaction and gc jobs run in-process, through the same processors',
      );
      queue = new InProcessJobQueue(registry.processors, undefined, (job, outcome) =>
        metrics.jobFinished(job, outcome),
      );
    }
    metrics.read({ queueDepth: () => queue.counts() });
    return queue;
  },
};
