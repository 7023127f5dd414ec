import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { BlobsModule } from '../blobs/blobs.module';
import { ClusterModule } from '../cluster/cluster.module';
import { ConciergeModule } from '../concierge/concierge.module';
import { DatabaseModule } from '../database/database.module';
import { ModelModule } from '../model/model.module';
import { MetricsModule } from '../observability/metrics.module';
import { SpendModule } from '../spend/spend.module';
import { ConversationAccess } from './conversation-access';
import { ConversationEvents } from './conversation-events';
import { ConversationCommands } from './conversation-commands';
import { ConversationReads } from './conversation-reads';
import { ConversationTitles } from './conversation-titles';
import { ConversationsController } from './conversations.controller';
import { ConversationsService } from './conversations.service';
import { ConversationActors } from './conversation-actors';

/**
 * Conversations over HTTP, and the services the gateway and the admin routes share: access
 * checks, reads, head moves, the runners that drive each conversation and the commands that reach
 * them at the api process holding the conversation's lease (ClusterModule). What it says to the
 * modules above it goes through the app's event map (events/app-events.ts): `conversation.event`
 * (the realtime transport carries it to sockets) and `compaction.requested` (the compaction
 * queue takes it); it hears `lease.lost` from the cluster.
 */
@Module({
  imports: [
    DatabaseModule,
    ModelModule,
    ConciergeModule,
    BlobsModule,
    AgentsModule,
    ClusterModule,
    MetricsModule,
    SpendModule,
  ],
  controllers: [ConversationsController],
  providers: [
    ConversationEvents,
    ConversationAccess,
    ConversationCommands,
    ConversationReads,
    ConversationTitles,
    ConversationsService,
    ConversationActors,
  ],
  exports: [
    ConversationEvents,
    ConversationAccess,
    ConversationCommands,
    ConversationReads,
    ConversationsService,
    ConversationActors,
  ],
})
export class ConversationsModule {}
