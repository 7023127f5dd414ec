import { AgentCatalog, type AgentRegistration } from '@sweatpants/agent-runtime';
import { CONCIERGE_OFFLINE_RULES, conciergeAgent } from '@sweatpants/agent-concierge';
import { createDonations, DONATIONS_OFFLINE_RULES } from '@sweatpants/agent-donations';
import { Tidying, TIDYING_OFFLINE_RULES, tidyingAgent } from '@sweatpants/agent-tidying';

/** The tidying coach (seeds 000–002), as a program registers it. */
export const tidying: AgentRegistration = {
  definition: tidyingAgent,
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

/** The concierge (seed 003), as a program registers it. */
export const concierge: AgentRegistration = {
  definition: conciergeAgent,
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

export const donations: AgentRegistration = {
  definition: Donations.definition,
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

const PRODUCT = [tidying, concierge, donations];

/** The product's agents, registered: what the api, the worker and the terminal chat run. */
export function productAgents(): AgentCatalog {
  return new AgentCatalog().use(...PRODUCT);
}
