import { Logger, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { CompactionProcessingModule } from './compaction/compaction-processing.module';
import type { AppConfig } from './config/app-config';
import { loadClusterConfig } from './config/cluster-config';
import { ConfigModule } from './config/config.module';
import { GcProcessingModule } from './gc/gc-processing.module';
import { LivenessController } from './health/liveness.controller';
import { LoggingModule } from './observability/logging.module';
import { EventsModule } from './events/events.module';
import { MetricsModule } from './observability/metrics.module';
import { JobRegistryModule } from './queue/job-registry.module';
import { TracingModule } from './tracing/tracing.module';

/**
 * The worker process (apps/api/src/worker.ts): the database, the processors and a BullMQ worker;
 * its JSON logs, and on WORKER_PORT its own `/api/metrics` (the jobs it ran, their outcomes, gc's
 * removals, model calls of summaries) and `/api/health/live`.
 */
@Module({})
export class WorkerModule implements BeforeApplicationShutdown {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        // WORKER=off tells an api process to leave jobs to workers; the worker always runs one.
        ConfigModule.forRoot(config, { ...loadClusterConfig(process.env), worker: 'on' }),
        TracingModule,
        EventsModule,
        LoggingModule.forRoot(),
        MetricsModule,
        JobRegistryModule,
        CompactionProcessingModule,
        GcProcessingModule,
      ],
      controllers: [LivenessController],
    };
  }

  beforeApplicationShutdown(signal?: string): void {
    new Logger('Worker').log(`${signal ?? 'close'}: letting running jobs finish`);
  }
}
