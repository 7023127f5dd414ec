import { AGENT_NAMES, type AgentName } from '@sweatpants/domain';

/** How the client presents an agent: its name in words, a line about it, and how it opens. */
export interface AgentChoice {
  name: AgentName;
  label: string;
  blurb: string;
  /** What the agent says before anything is sent, on the new-conversation page. */
  intro: string;
  placeholder: string;
}

/** A Record over AgentName, so an agent added to libs/domain fails to compile here until it is named. */
const AGENTS: Record<AgentName, Omit<AgentChoice, 'name'>> = {
  tidying: {
    label: 'Tidying coach',
    blurb: 'One item at a time, one tap each, no judgement.',
    intro: 'Hi! Send a photo of the space you want to tidy, or tell me what bugs you about it.',
    placeholder: 'Add a photo, say what bugs you',
  },
  concierge: {
    label: 'Concierge',
    blurb: 'Sorts your quarantined items with you, in batches.',
    intro: 'Hello. Tell me what we should sort, and I will go through it with you in batches.',
    placeholder: 'Review my quarantined items',
  },
};

/** The agents in libs/domain's order, as the new-conversation page offers them. */
export const AGENT_CHOICES: readonly AgentChoice[] = AGENT_NAMES.map((name) => ({ name, ...AGENTS[name] }));

export function agentLabel(name: AgentName): string {
  return AGENTS[name].label;
}

/** The agent the new-conversation page starts with chosen. */
export const DEFAULT_AGENT: AgentChoice = { name: 'tidying', ...AGENTS.tidying };
