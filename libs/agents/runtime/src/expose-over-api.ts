import { AgentInfoSchema } from '@sweatpants/domain';
import type { AgentCatalog, AgentRegistration } from './agent-catalog';
import type { AgentDefinition, AgentPlugin } from './agent-definition';
import { INTERPRET_TOOL, RESPOND_TOOL } from './model';

/** What a program says when it exposes an agent: how it presents itself, how it answers offline. */
export type Exposure = Omit<AgentRegistration, 'definition'>;

/** The Messages API's rule for a tool's name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Tools the runtime offers the model itself, which a mode's own would shadow. */
const RESERVED = new Set([RESPOND_TOOL, INTERPRET_TOOL]);

/**
 * What stands between `agent` and running as the api's conversations, in words; none when it can.
 * Checked when it is exposed, so a deployment with an agent that cannot run refuses to start
 * rather than failing a person's first message.
 *
 * @example
 * const problems = apiIncompatibilities(Donations.definition, { about });
 * if (problems.length > 0) throw new Error(`donations cannot be exposed: ${problems.join('; ')}`);
 */
export function apiIncompatibilities(agent: AgentDefinition, exposure: Exposure): string[] {
  const problems: string[] = [];
  const about = AgentInfoSchema.safeParse({ name: agent.name, ...exposure.about });
  if (!about.success)
    problems.push(...about.error.issues.map((i) => `${i.path.join('.') || 'about'}: ${i.message}`));
  if (!agent.modes.some((m) => m.name === agent.initial.mode))
    problems.push(`its initial mode ${agent.initial.mode} is not one of its modes`);
  for (const mode of agent.modes) {
    let tools: readonly { name: string }[];
    try {
      tools = mode.tools(mode.parseData(mode.name === agent.initial.mode ? agent.initial.data : null));
    } catch {
      // a mode whose tools depend on data it only has later is checked when it runs
      continue;
    }
    const seen = new Set<string>();
    for (const { name } of tools) {
      if (!TOOL_NAME.test(name))
        problems.push(
          `mode ${mode.name}: tool name ${JSON.stringify(name)} is not 1–64 of a-z, 0-9, _ and -`,
        );
      if (RESERVED.has(name)) problems.push(`mode ${mode.name}: ${name} is the runtime's own tool`);
      if (seen.has(name)) problems.push(`mode ${mode.name}: two tools are named ${name}`);
      seen.add(name);
    }
  }
  return problems;
}

/**
 * A plugin (seed 004: "HTTP routes, MCP exposure, transport bindings") that exposes the agent as
 * the api's conversations: it checks the agent can run as one (apiIncompatibilities) and
 * registers it, with how it presents itself and its offline rules, in the program's `catalog`,
 * which is what `GET /api/agents` lists and what conversations are created with. Use it once per
 * program, not among a definition's `plugins` (those are installed at every turn).
 *
 * @example
 * const catalog = new AgentCatalog();
 * yield* Donations.use(exposeOverApi(catalog, { about, offlineRules: DONATIONS_OFFLINE_RULES }));
 */
export function exposeOverApi(catalog: AgentCatalog, exposure: Exposure): AgentPlugin {
  return {
    name: 'exposed over the api',
    *install(agent) {
      const problems = apiIncompatibilities(agent, exposure);
      if (problems.length > 0)
        throw new Error(`${agent.name} cannot be exposed over the api: ${problems.join('; ')}`);
      catalog.use({ definition: agent, ...exposure });
    },
  };
}
