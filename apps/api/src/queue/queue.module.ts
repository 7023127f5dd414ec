import { Module } from '@nestjs/common';
import { MetricsModule } from '../observability/metrics.module';
import { JobRegistryModule } from './job-registry.module';
import { JOB_QUEUE } from './job-queue';
import { jobQueueProvider } from './job-queue.provider';
import { QueueConnection } from './queue-connection';

/**
 * The api's jobs: their transport (Redis when REDIS_URL is set, in-process otherwise) and the
 * queue, which without Redis runs the registered processors itself.
 */
@Module({
  imports: [MetricsModule, JobRegistryModule],
  providers: [QueueConnection, jobQueueProvider],
  exports: [QueueConnection, JOB_QUEUE],
})
export class QueueModule {}
