import { Inject, Injectable, Logger, Module } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DatabaseModule, SQL_CLIENT } from '../database/database.module';
import { BLOB_STORE, type BlobStore } from './blob-store';
import { collectBlobs, type BlobGcReport } from './collect-blobs';
import { PgBlobStore } from './pg-blob-store';
import { S3BlobStore } from './s3-blob-store';
import { S3ObjectClient } from './s3-client';

/** The blob store the config names: the database by default, an S3-compatible bucket with BLOB_STORE_URL. */
export function openBlobStore(config: AppConfig, db: SqlClient, logger = new Logger('Blobs')): BlobStore {
  const blobs = config.blobStore;
  if (blobs.kind === 'database') return new PgBlobStore(db);
  const where = blobs.endpoint ?? `AWS (${blobs.region})`;
  logger.log(`photos' bytes go to s3://${blobs.bucket}/${blobs.prefix} at ${where}`);
  return new S3BlobStore(db, new S3ObjectClient(blobs, blobs.credentials), blobs.prefix);
}

/**
 * gc of blobs, for the scheduled gc job: `collect()` deletes the blobs no retained node names
 * (see collectBlobs). Run it after the tree's gc.
 */
@Injectable()
export class BlobCollector {
  constructor(@Inject(BLOB_STORE) private readonly store: BlobStore) {}

  collect(options: { now?: Date; graceMinutes?: number; dryRun?: boolean } = {}): Promise<BlobGcReport> {
    return collectBlobs(this.store, options);
  }
}

/**
 * The blob store alone, for every process that touches blobs: the api (through BlobsModule) and
 * the worker, whose gc job removes the blobs no retained node names.
 */
@Module({
  imports: [DatabaseModule],
  providers: [
    {
      provide: BLOB_STORE,
      inject: [APP_CONFIG, SQL_CLIENT],
      useFactory: (config: AppConfig, db: SqlClient) => openBlobStore(config, db),
    },
    BlobCollector,
  ],
  exports: [BLOB_STORE, BlobCollector],
})
export class BlobStoreModule {}
