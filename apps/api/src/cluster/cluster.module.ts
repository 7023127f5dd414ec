import { Module } from '@nestjs/common';
import { MetricsModule } from '../observability/metrics.module';
import { ClusterRedisModule } from '../redis/cluster-redis.module';
import { CommandForwarder } from './command-forwarder';
import { ConversationLease } from './conversation-lease';

/**
 * The api among its peers: conversation leases and the forwarding of commands to the process that
 * holds a conversation's lease.
 */
@Module({
  imports: [ClusterRedisModule, MetricsModule],
  providers: [ConversationLease, CommandForwarder],
  exports: [ConversationLease, CommandForwarder],
})
export class ClusterModule {}
