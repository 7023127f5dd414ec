import { Logger, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import { AgentCatalogModule } from '../agents/agent-catalog.module';
import { BlobStoreModule } from '../blobs/blob-store.module';
import type { AppConfig } from '../config/app-config';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { LivenessController } from '../health/liveness.controller';
import { LoggingModule } from '../observability/logging.module';
import { MetricsModule } from '../observability/metrics.module';
import { clusterConfigProvider, processorProviders } from './compaction.providers';
import { JobWorker, RUN_WORKER } from './job-worker.service';

/**
 * The worker process (apps/api/src/worker.ts): the database, the processors and a BullMQ worker;
 * its JSON logs, and on WORKER_PORT its own `/api/metrics` (the jobs it ran, their outcomes, gc's
 * removals, model calls of summaries) and `/api/health/live`.
 */
@Module({})
export class CompactionWorkerModule implements BeforeApplicationShutdown {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CompactionWorkerModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggingModule.forRoot(),
        MetricsModule,
        DatabaseModule,
        BlobStoreModule,
        AgentCatalogModule,
      ],
      controllers: [LivenessController],
      providers: [
        clusterConfigProvider,
        ...processorProviders,
        { provide: RUN_WORKER, useValue: true },
        JobWorker,
      ],
    };
  }

  beforeApplicationShutdown(signal?: string): void {
    new Logger('Worker').log(`${signal ?? 'close'}: letting running jobs finish`);
  }
}
