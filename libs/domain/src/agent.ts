import * as z from 'zod';

/**
 * An agent's name, as a conversation is created with it and nodes are authored by
 * `agent:<name>`. Which names exist is not the domain's to say: agents are registered by the
 * program that runs them (libs/agents' AgentCatalog) and listed at `GET /api/agents`.
 */
export const AgentNameSchema = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, {
  message: 'an agent name is 1–40 lowercase letters, digits or dashes',
  // a name of the wrong shape is told so once, not also checked against those registered
  abort: true,
});
export type AgentName = z.infer<typeof AgentNameSchema>;

/** What an agent may ask the person's device for, so a client can say so before it starts. */
export const AGENT_NEEDS = ['photos', 'location', 'clipboard'] as const;
export const AgentNeedSchema = z.enum(AGENT_NEEDS);
export type AgentNeed = z.infer<typeof AgentNeedSchema>;

/** How an agent presents itself (PROTOCOL.md, `GET /api/agents`). */
export const AgentInfoSchema = z.object({
  name: AgentNameSchema,
  /** what a person picks it by: "Tidying coach" */
  title: z.string().min(1),
  /** one line about what it does */
  description: z.string().min(1),
  /** how history in words names it: "the coach" */
  speaker: z.string().min(1),
  needs: z.array(AgentNeedSchema),
  /** what it says before anything is sent, on a new conversation */
  intro: z.string().min(1),
  /** the composer's placeholder before the first message */
  placeholder: z.string().min(1),
  /** the MCP servers whose tools it uses, by name (the deployment's); absent when it uses none */
  mcpServers: z.array(z.string().min(1)).optional(),
});
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

/** `GET /api/agents`: the agents registered in this deployment, in the order they were registered. */
export const AgentListSchema = z.object({ items: z.array(AgentInfoSchema) });
export type AgentList = z.infer<typeof AgentListSchema>;
