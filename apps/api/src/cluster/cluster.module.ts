import { Global, Module } from '@nestjs/common';
import { clusterConfigProvider } from '../compaction/compaction.providers';
import { CLUSTER_CONFIG } from './cluster-config';
import { ClusterRedis } from './cluster-redis';
import { CommandForwarder } from './command-forwarder';
import { ConversationLease } from './conversation-lease';

/**
 * The api among its peers: this process's id and Redis connections, conversation leases and the
 * forwarding of commands to the process that holds a conversation's lease. Global, so the runner
 * registry and the gateway can take them without importing this module.
 */
@Global()
@Module({
  providers: [clusterConfigProvider, ClusterRedis, ConversationLease, CommandForwarder],
  exports: [CLUSTER_CONFIG, ClusterRedis, ConversationLease, CommandForwarder],
})
export class ClusterModule {}
