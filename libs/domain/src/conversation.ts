import * as z from 'zod';

export const AGENT_NAMES = ['tidying', 'concierge'] as const;
export const AgentNameSchema = z.enum(AGENT_NAMES);
export type AgentName = z.infer<typeof AgentNameSchema>;

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
