import { Logger, Module, type BeforeApplicationShutdown, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { BlobStoreModule } from '../blobs/blob-store.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { clusterConfigProvider, processorProviders } from './compaction.providers';
import { JobWorker, RUN_WORKER } from './job-worker.service';

/** The worker process (apps/api/src/worker.ts): the database, the processors and a BullMQ worker. */
@Module({})
export class CompactionWorkerModule implements BeforeApplicationShutdown {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CompactionWorkerModule,
      imports: [ConfigModule.forRoot(config), DatabaseModule, BlobStoreModule],
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
