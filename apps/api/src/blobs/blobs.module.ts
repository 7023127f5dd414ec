import { Module } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module';
import { BlobAccess } from './blob-access';
import { BlobStoreModule } from './blob-store.module';
import { BlobsController } from './blobs.controller';
import { PhotoIntake } from './photo-intake';

/** Photos as content-addressed blobs: the store, the intake that fills it, and `GET /api/blobs/:sha256`. */
@Module({
  imports: [DatabaseModule, BlobStoreModule],
  controllers: [BlobsController],
  providers: [BlobAccess, PhotoIntake],
  exports: [BlobStoreModule, PhotoIntake],
})
export class BlobsModule {}
