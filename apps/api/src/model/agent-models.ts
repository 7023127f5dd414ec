import { Inject, Injectable } from '@nestjs/common';
import { ClaudeModel, claudeConfigFrom, OfflineModel, type Model } from '@sweatpants/agents';
import type { AgentName } from '@sweatpants/domain';
import type { AgentEntry } from '../agents/agent-entry';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ModelChoice } from './model-choice';

/**
 * The model each agent's runners sample: one Claude client for all when ANTHROPIC_API_KEY is set
 * (ANTHROPIC_BASE_URL, ANTHROPIC_MODEL and ANTHROPIC_MAX_TOKENS read as libs/agents reads them),
 * else an offline model per agent, with that agent's rules asked first.
 */
@Injectable()
export class AgentModels {
  private readonly claude: ClaudeModel | null;
  private readonly offline = new Map<AgentName, OfflineModel>();

  constructor(choice: ModelChoice, @Inject(APP_CONFIG) config: AppConfig) {
    if (choice.kind === 'offline') {
      this.claude = null;
      return;
    }
    const claude = claudeConfigFrom({ ...process.env, ANTHROPIC_API_KEY: config.anthropicApiKey });
    if (!claude.ok) {
      const fields = claude.error.map((p) => `${p.field}: ${p.message}`).join('; ');
      throw new Error(`invalid environment: ${fields}`);
    }
    this.claude = claude.value ? new ClaudeModel(claude.value) : null;
  }

  for(name: AgentName, entry: AgentEntry): Model {
    if (this.claude) return this.claude;
    let model = this.offline.get(name);
    if (!model) {
      model = new OfflineModel(entry.offlineRules);
      this.offline.set(name, model);
    }
    return model;
  }
}
