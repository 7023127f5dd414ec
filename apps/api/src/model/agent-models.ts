import { Inject, Injectable } from '@nestjs/common';
import { ClaudeModel, claudeConfigFrom } from '@sweatpants/agent-claude';
import type { Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import type { AgentName } from '@sweatpants/domain';
import type { AgentEntry } from '../agents/agent-entry';
import { BLOB_STORE, type BlobStore } from '../blobs/blob-store';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Metrics } from '../observability/metrics';
import { ModelChoice } from './model-choice';

/**
 * The model each agent's runners sample: one Claude client for all when ANTHROPIC_API_KEY is set
 * (ANTHROPIC_BASE_URL, ANTHROPIC_MODEL and ANTHROPIC_MAX_TOKENS read as libs/agents reads them),
 * else an offline model per agent, with that agent's rules asked first.
 */
@Injectable()
export class AgentModels {
  private readonly claude: Model | null;
  private readonly offline = new Map<AgentName, Model>();
  private readonly paceMs: number;

  constructor(
    choice: ModelChoice,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(BLOB_STORE) blobs: BlobStore,
    private readonly metrics: Metrics,
  ) {
    this.paceMs = config.offlinePaceMs;
    if (choice.kind === 'offline') {
      this.claude = null;
      return;
    }
    const claude = claudeConfigFrom(config.anthropicEnv);
    if (!claude.ok) {
      const fields = claude.error.map((p) => `${p.field}: ${p.message}`).join('; ');
      throw new Error(`invalid environment: ${fields}`);
    }
    // Claude sees a photo's bytes, read from the blob store when a request shows it.
    const photoBytes = async (sha256: string) => (await blobs.get(sha256))?.data ?? null;
    this.claude = claude.value ? this.timed(new ClaudeModel(claude.value, { photoBytes })) : null;
  }

  for(name: AgentName, entry: AgentEntry): Model {
    if (this.claude) return this.claude;
    let model = this.offline.get(name);
    if (!model) {
      model = this.timed(new OfflineModel(entry.offlineRules, { paceMs: this.paceMs }));
      this.offline.set(name, model);
    }
    return model;
  }

  /** Each call timed into the model-call histogram (when metrics are wired: not in the worker). */
  private timed(model: Model): Model {
    return this.metrics ? this.metrics.timed(model) : model;
  }
}
