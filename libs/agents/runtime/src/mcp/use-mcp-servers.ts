import { useScope } from 'effection';
import type { AgentPlugin } from '../agent-definition';
import { OfferedTools } from '../offered-tools';
import type { McpToolInfo } from './mcp-connection';
import { McpConnections } from './mcp-connections';
import { DEFAULT_MCP_TIMEOUT_MS, type McpServerConfig } from './mcp-server-config';

/** The plugin `useMcpServers` makes: says which servers it gives the agent. */
export interface McpServersPlugin extends AgentPlugin {
  /** the servers' names, as `GET /api/agents` lists them for the agent */
  readonly servers: readonly string[];
}

/**
 * A plugin (seed 004: "MCP bidirectional integration", the consuming half) that gives an agent
 * the tools of MCP servers, through the official SDK's client over stdio or Streamable HTTP. Put
 * it among the definition's `plugins`: at every turn it offers each server's tools beside the
 * mode's own (named `<server>_<tool>`, in a stable order), over connections opened when the turn
 * first lists them and closed when it ends.
 *
 * A call is a tool like any other: journaled, so a replay after a crash or a takeover returns a
 * recorded result without calling the server again. A question the server asks during the call
 * (elicitation) is the person's: a `form` with the server's schema, or a link to open as a
 * `confirm`; their answer goes back to the server. A server that is down, silent past its timeout
 * (the server's own `timeoutMs`, else `options.timeoutMs`, else DEFAULT_MCP_TIMEOUT_MS; the time
 * a person takes to answer does not count) or that answers an error is a tool error the model
 * reads, never a failed turn.
 *
 * @example
 * export const Assistant = createAgent({}, {
 *   name: 'assistant',
 *   modes: [helping],
 *   initial: { mode: 'helping', data: null },
 *   state: modeReducer('assistant', { mode: 'helping', data: null }),
 *   fallbackReply: () => 'I could not do that just now.',
 *   plugins: [useMcpServers([{ name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }])],
 * });
 */
export function useMcpServers(
  servers: readonly McpServerConfig[],
  options: { timeoutMs?: number } = {},
): McpServersPlugin {
  // What each server listed last, for the whole program: offered while it is down.
  const known = new Map<string, readonly McpToolInfo[]>();
  const timeoutOf = (server: McpServerConfig) =>
    server.timeoutMs ?? options.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
  return {
    name: `MCP servers ${servers.map((s) => s.name).join(', ') || '(none)'}`,
    servers: servers.map((s) => s.name),
    *install() {
      if (servers.length === 0) return;
      // Nothing is opened here: a compaction job installs plugins too, and needs no server.
      const connections = new McpConnections(yield* useScope(), servers, timeoutOf, known);
      yield* OfferedTools.around({
        *offered([mode, data], next) {
          return [...(yield* next(mode, data)), ...(yield* connections.tools())];
        },
      });
    },
  };
}
