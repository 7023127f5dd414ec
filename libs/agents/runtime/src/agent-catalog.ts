import { AgentNameSchema, type AgentInfo } from '@sweatpants/domain';
import type { OfflineRule } from './offline';
import type { AgentDefinition } from './agent-definition';
import type { Tool } from './tool';

/** An agent as a program registers it: what it runs, how it presents itself, how it answers offline. */
export interface AgentRegistration {
  definition: AgentDefinition;
  /** its title, description, speaker, needs, intro and placeholder (PROTOCOL.md, `GET /api/agents`) */
  about: Omit<AgentInfo, 'name'>;
  /** its own offline rules, asked before the built-in ones; none when it has none */
  offlineRules?: readonly OfflineRule[];
}

/**
 * How an agent is offered to MCP clients (exposeOverMcp): a tool to talk to it, and these of its
 * own tools, which MCP clients may call directly as `<agent>_<tool>`.
 */
export interface McpExposure {
  /** the agent's tools an MCP client may call by themselves (the coach's `guess_pile`); none by default */
  tools?: readonly Tool[];
}

/** An agent exposed over MCP: its registration, and the tools of its own offered there. */
export interface McpAgent {
  name: string;
  registration: AgentRegistration;
  tools: readonly Tool[];
}

/**
 * The agents a program runs, registered by name, as seed 004's `server.use` registers them: the
 * api, the worker and the terminal chat each build one, so adding an agent touches no closed list
 * anywhere. Registration order is the order they are listed in.
 *
 * @example
 * const agents = new AgentCatalog().use(tidying, concierge);
 * agents.get('tidying')?.definition.modes;
 * agents.list(); // [{ name: 'tidying', title: 'Tidying coach', … }, …]
 */
export class AgentCatalog {
  private readonly entries = new Map<string, AgentRegistration>();
  private readonly overMcp = new Map<string, readonly Tool[]>();

  /** Registers each agent under its definition's name; a bad or taken name throws. */
  use(...registrations: readonly AgentRegistration[]): this {
    for (const registration of registrations) {
      const name = registration.definition.name;
      const parsed = AgentNameSchema.safeParse(name);
      if (!parsed.success)
        throw new Error(`agent name ${JSON.stringify(name)}: ${parsed.error.issues[0]?.message}`);
      if (this.entries.has(name)) throw new Error(`an agent named ${name} is already registered`);
      this.entries.set(name, registration);
    }
    return this;
  }

  /**
   * Offers the registered agent `name` to MCP clients too (the api's `/mcp`), with the tools of its
   * own that `exposure` names. An agent not registered yet throws: an MCP client talks to the
   * agent as a conversation, so it must run as one first (exposeOverApi).
   */
  exposeOverMcp(name: string, exposure: McpExposure = {}): this {
    if (!this.entries.has(name)) throw new Error(`${name} is exposed over MCP before it is registered`);
    if (this.overMcp.has(name)) throw new Error(`${name} is already exposed over MCP`);
    this.overMcp.set(name, exposure.tools ?? []);
    return this;
  }

  /** The agents exposed over MCP, in registration order, each with the tools it offers there. */
  mcpAgents(): McpAgent[] {
    return [...this.entries].flatMap(([name, registration]) => {
      const tools = this.overMcp.get(name);
      return tools ? [{ name, registration, tools }] : [];
    });
  }

  /** Whether an agent is registered as `name` (a conversation's agent, checked before it is created). */
  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The agent registered as `name`; undefined when there is none. */
  get(name: string): AgentRegistration | undefined {
    return this.entries.get(name);
  }

  /** Its definition, for code that only runs conversations of registered agents. */
  definition(name: string): AgentDefinition {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no agent named ${name} is registered`);
    return entry.definition;
  }

  /** The registered names, in registration order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** How each presents itself, in registration order. */
  list(): AgentInfo[] {
    return [...this.entries].map(([name, { about }]) => ({ name, ...about }));
  }
}
