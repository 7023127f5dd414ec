import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DatabaseModule } from '../database/database.module';
import { QueueModule } from '../queue/queue.module';
import { ClusterRedisModule } from '../redis/cluster-redis.module';
import { CompactionAnnouncer } from './compaction-announcer';
import { CompactionProcessingModule } from './compaction-processing.module';
import { CompactionQueue } from './compaction-queue.service';
import { CompactionController } from './compaction.controller';

/**
 * Compaction in the api: PROTOCOL.md's routes, the queue conversations' requests go to
 * (CompactionQueue hears `compaction.requested` on the app's event map), its processor, and what a
 * finished compaction means for the live conversation (CompactionAnnouncer).
 */
@Module({
  imports: [
    DatabaseModule,
    AuthModule,
    ConversationsModule,
    QueueModule,
    ClusterRedisModule,
    CompactionProcessingModule,
  ],
  controllers: [CompactionController],
  providers: [CompactionQueue, CompactionAnnouncer],
})
export class CompactionModule {}
