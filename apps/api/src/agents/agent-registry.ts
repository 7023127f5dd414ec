import { Injectable, Logger } from '@nestjs/common';
import * as agentsLib from '@sweatpants/agents';
import type { AgentDefinition, OfflineRule } from '@sweatpants/agents';
import { AGENT_NAMES, type AgentName } from '@sweatpants/domain';
import type { AgentEntry } from './agent-entry';
import { FALLBACK_AGENTS } from './fallback-agents';

/**
 * The agents conversations run: libs/agents' AGENTS and OFFLINE_RULES once they export them, and
 * until then (or for a name they lack) the stand-ins of ./fallback-agents. Looked up by name at
 * run time so this file builds before and after they land.
 */
@Injectable()
export class AgentRegistry {
  private readonly entries: Record<AgentName, AgentEntry>;

  constructor() {
    const lib = agentsLib as Record<string, unknown>;
    const agents = lib['AGENTS'] as Partial<Record<AgentName, AgentDefinition>> | undefined;
    const rules = lib['OFFLINE_RULES'] as Partial<Record<AgentName, readonly OfflineRule[]>> | undefined;
    const logger = new Logger('Agents');
    this.entries = Object.fromEntries(
      AGENT_NAMES.map((name) => {
        const definition = agents?.[name];
        if (!definition) {
          logger.warn(`the ${name} agent is not in @sweatpants/agents yet: running a stand-in`);
          return [name, FALLBACK_AGENTS[name]];
        }
        return [name, { definition, offlineRules: rules?.[name] ?? [] }];
      }),
    ) as Record<AgentName, AgentEntry>;
  }

  get(name: AgentName): AgentEntry {
    return this.entries[name];
  }
}
