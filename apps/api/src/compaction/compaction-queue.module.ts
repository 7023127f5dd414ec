import { Global, Module } from '@nestjs/common';
import { AgentCatalogModule } from '../agents/agent-catalog.module';
import { BlobStoreModule } from '../blobs/blob-store.module';
import { DatabaseModule } from '../database/database.module';
import { GcRuns } from '../gc/gc-runs';
import { COMPACTION_REQUESTS } from './compaction-requests';
import { CompactionQueue } from './compaction-queue.service';
import { queueProviders } from './compaction.providers';
import { JOB_QUEUE } from './job-queue';
import { JobWorker, RUN_WORKER } from './job-worker.service';
import { CLUSTER_CONFIG, type ClusterConfig } from '../cluster/cluster-config';

/**
 * The job queue and COMPACTION_REQUESTS, global so the runner registry's port finds them. With
 * REDIS_URL the api also runs a BullMQ worker unless WORKER=off (a separate `npm run worker`).
 */
@Global()
@Module({
  imports: [DatabaseModule, BlobStoreModule, AgentCatalogModule],
  providers: [
    ...queueProviders,
    CompactionQueue,
    { provide: COMPACTION_REQUESTS, useExisting: CompactionQueue },
    { provide: RUN_WORKER, inject: [CLUSTER_CONFIG], useFactory: (c: ClusterConfig) => c.worker === 'on' },
    JobWorker,
  ],
  exports: [JOB_QUEUE, CompactionQueue, COMPACTION_REQUESTS, GcRuns],
})
export class CompactionQueueModule {}
