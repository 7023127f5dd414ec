import { Module, type Provider } from '@nestjs/common';
import { TreeStore } from '@sweatpants/tree-store';
import { BlobStoreModule } from '../blobs/blob-store.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { Metrics } from '../observability/metrics';
import { MetricsModule } from '../observability/metrics.module';
import { JobProcessorRegistry } from '../queue/job-processor-registry';
import { JobRegistryModule } from '../queue/job-registry.module';
import { GcRuns } from './gc-runs';
import { GC_SWEEPS, gcSweepsProvider } from './gc-sweeps';
import { GcProcessor, type GcSweep } from './gc.processor';

/** The gc job's processor, plugged into the registry of whichever process runs jobs. */
const gcProcessorProvider: Provider = {
  provide: GcProcessor,
  inject: [TreeStore, GcRuns, APP_CONFIG, GC_SWEEPS, Metrics, JobProcessorRegistry],
  useFactory: (
    store: TreeStore,
    runs: GcRuns,
    config: AppConfig,
    sweeps: readonly GcSweep[],
    metrics: Metrics,
    registry: JobProcessorRegistry,
  ): GcProcessor => {
    const gc = new GcProcessor(
      store,
      runs,
      config.gc.policy,
      config.gc.dryRun,
      (removed) => metrics.gcRemoved(removed),
      sweeps,
    );
    registry.register('tree.gc', (payload, run) => gc.process(payload, run));
    return gc;
  },
};

/** Running gc (the api's in-process queue, or the worker) and its runs' records. */
@Module({
  imports: [DatabaseModule, BlobStoreModule, MetricsModule, JobRegistryModule],
  providers: [GcRuns, gcSweepsProvider, gcProcessorProvider],
  exports: [GcRuns],
})
export class GcProcessingModule {}
