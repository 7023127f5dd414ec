import { TestBed } from '@angular/core/testing';
import type { AgentInfo } from '@sweatpants/domain';

import { AgentsService } from './agents.service';

/** The product's two agents as `GET /api/agents` lists them. */
export const AGENTS_FIXTURE: readonly AgentInfo[] = [
  {
    name: 'tidying',
    title: 'Tidying coach',
    description: 'One item at a time, one tap each, no judgement.',
    speaker: 'the coach',
    needs: ['photos'],
    intro: 'Hi! Send a photo of the space you want to tidy, or tell me what bugs you about it.',
    placeholder: 'Add a photo, say what bugs you',
  },
  {
    name: 'concierge',
    title: 'Concierge',
    description: 'Sorts your quarantined items with you, in batches.',
    speaker: 'the concierge',
    needs: [],
    intro: 'Hello. Tell me what we should sort, and I will go through it with you in batches.',
    placeholder: 'Review my quarantined items',
  },
];

/** Gives the test's AgentsService the agents as if the api had listed them. */
export function useAgents(agents: readonly AgentInfo[] = AGENTS_FIXTURE): void {
  TestBed.inject(AgentsService).use(agents);
}
