import { exposeOverApi, exposeOverMcp, type Exposure, type McpServerConfig } from '@sweatpants/agent-runtime';
import { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { ASSISTANT_OFFLINE_RULES, createAssistant } from '@sweatpants/agent-assistant';
import { Concierge, CONCIERGE_OFFLINE_RULES } from '@sweatpants/agent-concierge';
import { createDonations, DONATIONS_OFFLINE_RULES } from '@sweatpants/agent-donations';
import { createTidying, TIDYING_OFFLINE_RULES } from '@sweatpants/agent-tidying';
import { run, type Operation } from 'effection';

/** The tidying coach (seeds 000–002), as the product presents it. */
export const TIDYING_EXPOSURE: Exposure = {
  about: {
    title: 'Tidying coach',
    description: 'One item at a time, one tap each, no judgement.',
    speaker: 'the coach',
    needs: ['photos'],
    intro: 'Hi! Send a photo of the space you want to tidy, or tell me what bugs you about it.',
    placeholder: 'Add a photo, say what bugs you',
  },
  offlineRules: TIDYING_OFFLINE_RULES,
};

/** The concierge (seed 003), as the product presents it. */
export const CONCIERGE_EXPOSURE: Exposure = {
  about: {
    title: 'Concierge',
    description: 'Sorts your quarantined items with you, in batches.',
    speaker: 'the concierge',
    needs: [],
    intro: 'Hello. Tell me what we should sort, and I will go through it with you in batches.',
    placeholder: 'Review my quarantined items',
  },
  offlineRules: CONCIERGE_OFFLINE_RULES,
};

/**
 * The tidying coach and the donation helper, each handed the other's tool: the one place where
 * agents are given another's tools, so neither library imports the other. Each call goes through
 * the other agent as it is in context when it is made, so the two may name each other here.
 */
export const Tidying = createTidying({ donations: (input) => Donations.tools.offerPlace(input) });
/** The donation helper, handed the coach's guess at an item's pile. */
export const Donations = createDonations({ guessPile: Tidying.tools.guessPile });

/** The donation helper, as the product presents it. */
export const DONATIONS_EXPOSURE: Exposure = {
  about: {
    title: 'Donation helper',
    description: 'Finds where the things you no longer need can go, near you.',
    speaker: 'the helper',
    needs: ['location', 'clipboard'],
    intro: "Hello! Tell me something you'd like to give away, and I'll find a place near you that takes it.",
    placeholder: 'e.g. a winter coat',
  },
  offlineRules: DONATIONS_OFFLINE_RULES,
};

/**
 * The general assistant, as the product presents it: it uses the deployment's MCP servers,
 * `servers` by name.
 */
export function assistantExposure(servers: readonly string[]): Exposure {
  return {
    about: {
      title: 'Assistant',
      description: 'Uses the tools of the MCP servers this deployment connects.',
      speaker: 'the assistant',
      needs: [],
      intro: 'Hello! Name a tool and what to give it, for example "use echo with hello".',
      placeholder: 'e.g. use echo with hello',
      mcpServers: [...servers],
    },
    offlineRules: ASSISTANT_OFFLINE_RULES,
  };
}

/** What the programs tell the registry of their deployment. */
export interface ProductAgentOptions {
  /** the MCP servers the assistant uses (the api's MCP_SERVERS); none when absent */
  mcpServers?: readonly McpServerConfig[];
  /** how long a call to one of them may take, for servers that say nothing of their own */
  mcpTimeoutMs?: number;
}

/**
 * Exposes the product's agents over the api (seed 004's `server.use`, as `agent.use(plugin)`),
 * in the order a person is offered them: what the api, the worker and the terminal chat run.
 * Each is offered to MCP clients too (the api's `/mcp`): a tool to talk to it, and the coach's
 * guess at an item's pile as a tool of its own, which needs no conversation.
 */
export function* exposeProductAgents(
  catalog: AgentCatalog,
  options: ProductAgentOptions = {},
): Operation<AgentCatalog> {
  const tidying = yield* Tidying.instance();
  yield* Tidying.use(exposeOverApi(catalog, TIDYING_EXPOSURE));
  yield* Tidying.use(exposeOverMcp(catalog, { tools: [tidying.tools.guessPile] }));
  yield* Concierge.use(exposeOverApi(catalog, CONCIERGE_EXPOSURE));
  yield* Concierge.use(exposeOverMcp(catalog));
  yield* Donations.use(exposeOverApi(catalog, DONATIONS_EXPOSURE));
  yield* Donations.use(exposeOverMcp(catalog));
  const servers = options.mcpServers ?? [];
  const Assistant = createAssistant({
    servers,
    ...(options.mcpTimeoutMs === undefined ? {} : { timeoutMs: options.mcpTimeoutMs }),
  });
  yield* Assistant.use(exposeOverApi(catalog, assistantExposure(servers.map((s) => s.name))));
  yield* Assistant.use(exposeOverMcp(catalog));
  return catalog;
}

/** The product's agents, exposed in a catalog of their own (for code outside an effection scope). */
export function productAgents(options: ProductAgentOptions = {}): Promise<AgentCatalog> {
  return run(() => exposeProductAgents(new AgentCatalog(), options));
}

export { embeddedMcpServer } from './embedded-mcp-server';
