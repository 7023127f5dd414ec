import { Module } from '@nestjs/common';
import { MetricsModule } from '../observability/metrics.module';
import { JobProcessorRegistry } from './job-processor-registry';
import { JobWorker } from './job-worker.service';

/**
 * What a process that runs jobs needs: the registry its features plug their processors into, and
 * (with REDIS_URL, unless WORKER=off) the BullMQ worker that runs them.
 */
@Module({
  imports: [MetricsModule],
  providers: [JobProcessorRegistry, JobWorker],
  exports: [JobProcessorRegistry],
})
export class JobRegistryModule {}
