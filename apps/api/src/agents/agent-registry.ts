import { Injectable } from '@nestjs/common';
import { AGENTS, OFFLINE_RULES, provideActivityStore } from '@sweatpants/agents';
import type { ConversationRecord } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { PgActivityStores } from '../concierge/pg-activity-store';
import type { AgentEntry } from './agent-entry';

/**
 * The agents conversations run (libs/agents' AGENTS, with their offline rules), and the
 * per-conversation services their tools use: the concierge's activity store, bound to the
 * conversation's owner so no owner's tools read another's rows.
 */
@Injectable()
export class AgentRegistry {
  constructor(private readonly activities: PgActivityStores) {}

  get(name: ConversationRecord['agent']): AgentEntry {
    return { definition: AGENTS[name], offlineRules: OFFLINE_RULES[name] };
  }

  /** What the Runner's `provide` option sets at the top of every turn, if the agent needs anything. */
  servicesFor(conversation: ConversationRecord): (() => Operation<void>) | undefined {
    switch (conversation.agent) {
      case 'concierge':
        return provideActivityStore(this.activities.forOwner(conversation.ownerId));
      case 'tidying':
        return undefined;
    }
  }
}
