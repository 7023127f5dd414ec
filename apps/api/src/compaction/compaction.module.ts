import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DatabaseModule } from '../database/database.module';
import { CompactionAnnouncer } from './compaction-announcer';
import { CompactionQueueModule } from './compaction-queue.module';
import { CompactionController } from './compaction.controller';

/**
 * Compaction in the api: PROTOCOL.md's routes, and what a finished compaction means for the live
 * conversation (CompactionAnnouncer). The queue itself is CompactionQueueModule's.
 */
@Module({
  imports: [DatabaseModule, AuthModule, ConversationsModule, CompactionQueueModule],
  controllers: [CompactionController],
  providers: [CompactionAnnouncer],
})
export class CompactionModule {}
