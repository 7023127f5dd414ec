import { AgentNameSchema, type AgentInfo } from '@sweatpants/domain';
import type { OfflineRule } from './offline';
import type { AgentDefinition } from './agent-definition';

/** An agent as a program registers it: what it runs, how it presents itself, how it answers offline. */
export interface AgentRegistration {
  definition: AgentDefinition;
  /** its title, description, speaker, needs, intro and placeholder (PROTOCOL.md, `GET /api/agents`) */
  about: Omit<AgentInfo, 'name'>;
  /** its own offline rules, asked before the built-in ones; none when it has none */
  offlineRules?: readonly OfflineRule[];
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
