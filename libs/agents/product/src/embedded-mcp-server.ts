import type { McpServerConfig } from '@sweatpants/agent-runtime';

/**
 * The MCP server the assistant uses when a deployment names none (MCP_SERVERS unset): the MCP
 * project's reference server, installed with the product, run over stdio as a child process by
 * this node, so the assistant can be tried with no setup, in the api and in the terminal alike.
 */
export function embeddedMcpServer(): McpServerConfig {
  return {
    name: 'everything',
    command: process.execPath,
    args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
  };
}
