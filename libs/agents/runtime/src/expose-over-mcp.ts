import type { AgentCatalog, McpExposure } from './agent-catalog';
import type { AgentDefinition, AgentPlugin } from './agent-definition';

export type { McpAgent, McpExposure } from './agent-catalog';

/**
 * MCP's rule for a tool's name (2025-11-25: 1–128 of letters, digits, `_`, `-` and `.`), which an
 * exposed tool's `<agent>_<tool>` must keep.
 */
const MCP_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * What stands between `agent` and being offered to MCP clients with `exposure`, in words; none
 * when it can. Checked when it is exposed, so a deployment refuses to start rather than listing a
 * tool no client can call.
 *
 * @example
 * const problems = mcpIncompatibilities(Tidying.definition, { tools: [guessPile] });
 */
export function mcpIncompatibilities(agent: AgentDefinition, exposure: McpExposure): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const tool of exposure.tools ?? []) {
    const name = mcpToolName(agent.name, tool.name);
    if (!MCP_TOOL_NAME.test(name))
      problems.push(`tool ${JSON.stringify(name)} is not 1–128 of A-Z, a-z, 0-9, _, - and .`);
    if (seen.has(name)) problems.push(`two tools are named ${name}`);
    seen.add(name);
  }
  return problems;
}

/**
 * The name an MCP client calls an agent's own tool by: the agent's, then the tool's, so two agents'
 * tools of one name stay apart in a client's list.
 *
 * @example
 * mcpToolName('tidying', 'guess_pile'); // 'tidying_guess_pile'
 */
export function mcpToolName(agent: string, tool: string): string {
  return `${agent}_${tool}`;
}

/**
 * A plugin (seed 004: "HTTP routes, MCP exposure, transport bindings") that offers an agent to MCP
 * clients through the api's `/mcp`: one tool to talk to it (a message in, its replies out, its
 * questions asked of the client or the person) and, as tools of their own, the agent tools
 * `exposure` names. It marks the agent in the program's `catalog`, where it must already be
 * registered (exposeOverApi first: over MCP, the agent runs as the caller's conversation). Use it
 * once per program, as exposeOverApi is.
 *
 * @example
 * const catalog = new AgentCatalog();
 * yield* Tidying.use(exposeOverApi(catalog, TIDYING_EXPOSURE));
 * const { tools } = yield* Tidying.instance();
 * yield* Tidying.use(exposeOverMcp(catalog, { tools: [tools.guessPile] }));
 */
export function exposeOverMcp(catalog: AgentCatalog, exposure: McpExposure = {}): AgentPlugin {
  return {
    name: 'exposed over MCP',
    *install(agent) {
      const problems = mcpIncompatibilities(agent, exposure);
      if (problems.length > 0)
        throw new Error(`${agent.name} cannot be exposed over MCP: ${problems.join('; ')}`);
      catalog.exposeOverMcp(agent.name, exposure);
    },
  };
}
