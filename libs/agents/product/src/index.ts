import { exposeOverApi, type Exposure } from '@sweatpants/agent-runtime';
import { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { Concierge, CONCIERGE_OFFLINE_RULES } from '@sweatpants/agent-concierge';
import { createDonations, DONATIONS_OFFLINE_RULES } from '@sweatpants/agent-donations';
import { Tidying, TIDYING_OFFLINE_RULES } from '@sweatpants/agent-tidying';
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
 * The donation helper, handed the coach's guess at an item's pile: the one place where one agent
 * is given another's tool, so neither library imports the other.
 */
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
 * Exposes the product's agents over the api (seed 004's `server.use`, as `agent.use(plugin)`),
 * in the order a person is offered them: what the api, the worker and the terminal chat run.
 */
export function* exposeProductAgents(catalog: AgentCatalog): Operation<AgentCatalog> {
  yield* Tidying.use(exposeOverApi(catalog, TIDYING_EXPOSURE));
  yield* Concierge.use(exposeOverApi(catalog, CONCIERGE_EXPOSURE));
  yield* Donations.use(exposeOverApi(catalog, DONATIONS_EXPOSURE));
  return catalog;
}

/** The product's agents, exposed in a catalog of their own (for code outside an effection scope). */
export function productAgents(): Promise<AgentCatalog> {
  return run(() => exposeProductAgents(new AgentCatalog()));
}
