import type { AgentDefinition, OfflineRule } from '@sweatpants/agent-runtime';

/** What the api needs of an agent: its definition, and the rules it answers by offline. */
export interface AgentEntry {
  definition: AgentDefinition;
  offlineRules: readonly OfflineRule[];
}
