import type { Provider } from '@nestjs/common';
import { BlobCollector } from '../blobs/blob-store.module';
import type { GcSweep } from './gc.processor';

/** Injection token of the sweeps the gc job runs after node gc, in order. */
export const GC_SWEEPS = Symbol('GcSweeps');

/**
 * The sweeps after node gc, run by whichever process runs the job (the api's in-process queue or
 * the worker): the blobs (photos) that no retained node names any more, the nodes gc just removed
 * included.
 */
export const gcSweepsProvider: Provider = {
  provide: GC_SWEEPS,
  inject: [BlobCollector],
  useFactory: (blobs: BlobCollector): GcSweep[] => [
    { name: 'blobs', sweep: async ({ dryRun }) => (await blobs.collect({ dryRun })).blobs.length },
  ],
};
