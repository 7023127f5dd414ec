import type { AgentName } from '@sweatpants/domain';
import type { OfflineRule } from '../model/offline';
import type { AgentDefinition } from '../runtime';
import { CONCIERGE_OFFLINE_RULES, conciergeAgent } from './concierge';
import { TIDYING_OFFLINE_RULES, tidyingAgent } from './tidying';

export * from './concierge';
export * from './tidying';

/** Every agent of the product, by the name a conversation is created with. */
export const AGENTS: Record<AgentName, AgentDefinition> = {
  tidying: tidyingAgent,
  concierge: conciergeAgent,
};

/**
 * Each agent's offline rules: with no API key the api builds a conversation's model as
 * `new OfflineModel(OFFLINE_RULES[agent])`.
 */
export const OFFLINE_RULES: Record<AgentName, readonly OfflineRule[]> = {
  tidying: TIDYING_OFFLINE_RULES,
  concierge: CONCIERGE_OFFLINE_RULES,
};
