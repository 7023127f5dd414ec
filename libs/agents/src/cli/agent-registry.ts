import { createRequire } from 'node:module';
import type { Operation } from 'effection';
import type { OfflineRule } from '../model/offline';
import type { AgentDefinition } from '../runtime/agent-definition';

/** The agents a terminal can talk to, by name, and the offline rules each brings. */
export interface AgentRegistry {
  agents: Readonly<Record<string, AgentDefinition>>;
  /** the agent's own offline rules (asked before the built-in defaults); none when it has none */
  offlineRules(name: string): readonly OfflineRule[];
  /** the per-conversation services the agent's tools need (the Runner's `provide`), if any */
  services(name: string): (() => Operation<void>) | undefined;
}

// Loaded by path at run time, not imported: the agents' registry lands beside this runtime
// separately, and a terminal tool must start (with the test agent) before it does.
const load = createRequire(__filename);

/**
 * The agents `libs/agents/src/agents` exports as `AGENTS: Record<AgentName, AgentDefinition>`,
 * plus the test agent under `test` (for walking the runtime itself). An agent's offline rules are
 * the registry's `OFFLINE_RULES[name]` (or else its `<NAME>_OFFLINE_RULES` export), when it has any.
 */
export function loadAgentRegistry(): AgentRegistry {
  const registry = optionalModule('../agents');
  const agents: Record<string, AgentDefinition> = {};
  const exported = registry?.['AGENTS'];
  if (isRecord(exported)) {
    for (const [name, agent] of Object.entries(exported)) if (isAgent(agent)) agents[name] = agent;
  }
  const testAgent = optionalModule('../../test/test-agent')?.['testAgent'];
  if (isAgent(testAgent) && !agents['test']) agents['test'] = testAgent;
  return {
    agents,
    offlineRules: (name) => {
      const byName = registry?.['OFFLINE_RULES'];
      const rules = isRecord(byName)
        ? byName[name]
        : registry?.[`${name.toUpperCase().replace(/-/g, '_')}_OFFLINE_RULES`];
      return Array.isArray(rules) ? (rules as OfflineRule[]) : [];
    },
    services: (name) => (name === 'concierge' && registry ? conciergeDemo(registry) : undefined),
  };
}

/** A module's exports, or undefined when the module is not there (a missing dependency still throws). */
function optionalModule(specifier: string): Record<string, unknown> | undefined {
  try {
    return load(specifier) as Record<string, unknown>;
  } catch (error) {
    const missing =
      error instanceof Error &&
      (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' &&
      error.message.includes(`'${specifier}'`);
    if (missing) return undefined;
    throw error;
  }
}

/** The concierge's tools read an activity store: in a terminal, one in memory with the demo data. */
function conciergeDemo(registry: Record<string, unknown>): (() => Operation<void>) | undefined {
  const { provideActivityStore, InMemoryActivityStore, demoActivities, demoPeople } = registry;
  if (
    typeof provideActivityStore !== 'function' ||
    typeof InMemoryActivityStore !== 'function' ||
    typeof demoActivities !== 'function' ||
    typeof demoPeople !== 'function'
  )
    return undefined;
  const Store = InMemoryActivityStore as new (activities: unknown, people: unknown) => unknown;
  const provide = provideActivityStore as (store: unknown) => () => Operation<void>;
  return provide(new Store(demoActivities(), demoPeople()));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isAgent(value: unknown): value is AgentDefinition {
  return isRecord(value) && typeof value['name'] === 'string' && Array.isArray(value['modes']);
}
