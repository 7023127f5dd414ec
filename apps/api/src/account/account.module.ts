import { Module } from '@nestjs/common';
import { ClusterModule } from '../cluster/cluster.module';
import { AgentCatalogModule } from '../agents/agent-catalog.module';
import { AuthModule } from '../auth/auth.module';
import { BLOB_STORE, type BlobStore } from '../blobs/blob-store';
import { BlobStoreModule } from '../blobs/blob-store.module';
import { ConciergeModule } from '../concierge/concierge.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DatabaseModule } from '../database/database.module';
import { AccountDataController } from './account-data.controller';
import { AccountDeletion } from './account-deletion';
import { AccountExport } from './account-export';
import { DeletionConfirmation } from './deletion-confirmation';
import { EXPORT_PHOTOS, exportPhotos } from './export-photos';

/** Accounts that can leave: export everything, delete everything. */
@Module({
  imports: [
    ClusterModule,
    DatabaseModule,
    AgentCatalogModule,
    AuthModule,
    BlobStoreModule,
    ConciergeModule,
    ConversationsModule,
  ],
  controllers: [AccountDataController],
  providers: [
    AccountExport,
    AccountDeletion,
    DeletionConfirmation,
    {
      provide: EXPORT_PHOTOS,
      inject: [BLOB_STORE],
      useFactory: (blobs: BlobStore) =>
        exportPhotos(async (sha256) => (await blobs.get(sha256))?.data ?? null),
    },
  ],
})
export class AccountModule {}
