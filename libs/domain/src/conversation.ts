import type { AgentName } from './agent';

/** The stored facts of a conversation; the api adds status, pending elicit and model. */
export interface ConversationRecord {
  id: string;
  agent: AgentName;
  title: string;
  ownerId: string;
  /** the node HEAD points at */
  head: string;
  createdAt: string;
  updatedAt: string;
  archivedAt: string | null;
}
