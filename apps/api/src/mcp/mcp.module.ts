import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module';
import { AuthModule } from '../auth/auth.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { DatabaseModule } from '../database/database.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ClusterRedisModule } from '../redis/cluster-redis.module';
import { AgentCallTasks } from './agent-call-tasks';
import { AgentCalls } from './agent-calls';
import { AgentTools } from './agent-tools';
import { AnswerRelay } from './answer-relay';
import { ConversationSignals } from './conversation-signals';
import { McpEndpoint } from './mcp-endpoint';
import { McpSessions } from './mcp-sessions';
import { McpTaskStore } from './mcp-task-store';

/**
 * MCP at `/mcp` (PROTOCOL.md, MCP): the agents exposed over MCP as tools, each call one more
 * encoding of the conversation commands (ConversationsModule's), on every api process.
 */
@Module({
  imports: [
    AuthModule,
    ConversationsModule,
    AgentsModule,
    DatabaseModule,
    ClusterRedisModule,
    RateLimitModule,
  ],
  providers: [
    AgentCalls,
    AgentCallTasks,
    AgentTools,
    AnswerRelay,
    ConversationSignals,
    McpSessions,
    McpEndpoint,
    McpTaskStore,
  ],
  exports: [McpEndpoint],
})
export class McpModule {}
