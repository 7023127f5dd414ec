import type { AgentDefinition } from '@sweatpants/agent-runtime';
import type { OfflineRule } from '@sweatpants/agent-runtime/offline';

/** What the api needs of an agent: its definition, and the rules it answers by offline. */
export interface AgentEntry {
  definition: AgentDefinition;
  offlineRules: readonly OfflineRule[];
}
