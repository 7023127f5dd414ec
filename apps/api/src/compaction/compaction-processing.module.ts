import { Logger, Module, type Provider } from '@nestjs/common';
import { ClaudeModel, claudeConfigFrom } from '@sweatpants/agent-claude';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { TreeStore } from '@sweatpants/tree-store';
import { AGENT_CATALOG, AgentCatalogModule } from '../agents/agent-catalog.module';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DatabaseModule } from '../database/database.module';
import { JobProcessorRegistry } from '../queue/job-processor-registry';
import { JobRegistryModule } from '../queue/job-registry.module';
import { SpendLimits } from '../spend/spend-limits';
import { SpendLimitsModule } from '../spend/spend-limits.module';
import { ConversationTraces } from '../tracing/conversation-traces';
import { CompactionProcessor } from './compaction.processor';
import { ModelSummariser, OfflineSummariser, type Summariser } from './summariser';

const SUMMARISER = Symbol('Summariser');

/**
 * Claude when ANTHROPIC_API_KEY is set (with ANTHROPIC_BASE_URL and ANTHROPIC_MODEL), its calls
 * paid from the conversation owner's budget; else offline.
 */
const summariserProvider: Provider = {
  provide: SUMMARISER,
  inject: [APP_CONFIG, ConversationTraces, SpendLimits],
  useFactory: (config: AppConfig, traces: ConversationTraces, spend: SpendLimits): Summariser => {
    const claude = claudeConfigFrom(config.anthropicEnv);
    if (!claude.ok) throw new Error(`invalid environment: ${claude.error.map((p) => p.field).join(', ')}`);
    if (claude.value) {
      const logger = new Logger('Compaction');
      return new ModelSummariser(
        traces.detachedModel(new ClaudeModel(claude.value)),
        (message) => logger.warn(message),
        (model, { ownerId, conversationId }) => spend.limited(model, ownerId, conversationId),
      );
    }
    new Logger('Compaction').log('ANTHROPIC_API_KEY unset: compaction writes offline summaries');
    return new OfflineSummariser();
  },
};

/** The compaction job's processor, plugged into the registry of whichever process runs jobs. */
const compactionProcessorProvider: Provider = {
  provide: CompactionProcessor,
  inject: [TreeStore, SUMMARISER, AGENT_CATALOG, JobProcessorRegistry],
  useFactory: (
    store: TreeStore,
    summariser: Summariser,
    agents: AgentCatalog,
    registry: JobProcessorRegistry,
  ): CompactionProcessor => {
    const compaction = new CompactionProcessor(store, summariser, agents);
    registry.register('conversation.compact', (payload, run) => compaction.process(payload, run));
    return compaction;
  },
};

/** Running compaction jobs (the api's in-process queue, or the worker): the summariser and the processor. */
@Module({
  imports: [DatabaseModule, AgentCatalogModule, JobRegistryModule, SpendLimitsModule],
  providers: [summariserProvider, compactionProcessorProvider],
})
export class CompactionProcessingModule {}
