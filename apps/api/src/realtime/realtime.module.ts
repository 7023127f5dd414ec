import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { MetricsModule } from '../observability/metrics.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ConversationGateway } from './conversation.gateway';

/** The Socket.IO gateway at /socket.io. */
@Module({
  imports: [AuthModule, ConversationsModule, RateLimitModule, MetricsModule],
  providers: [ConversationGateway],
})
export class RealtimeModule {}
