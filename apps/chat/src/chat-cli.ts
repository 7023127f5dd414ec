import { exit, main, type Operation } from 'effection';
import { ClaudeModel, claudeConfigFrom } from '@sweatpants/agent-claude';
import {
  demoActivities,
  demoPeople,
  InMemoryActivityStore,
  provideActivityStore,
} from '@sweatpants/agent-concierge';
import { parseMcpServers, type McpServerConfig } from '@sweatpants/agent-runtime';
import { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { embeddedMcpServer, exposeProductAgents } from '@sweatpants/product-agents';
import { runChatSession } from './chat-session';

/**
 * Talk to an agent in the terminal, to walk its flows by hand:
 *
 *   npx nx run chat:serve --agent=tidying
 *   node -r ./libs/tree-store/bench/register.js apps/chat/src/chat-cli.ts tidying
 *
 * Claude answers when ANTHROPIC_API_KEY is set (ANTHROPIC_MODEL, ANTHROPIC_MAX_TOKENS and
 * ANTHROPIC_BASE_URL as for the api), the offline model with the agent's rules otherwise. The
 * assistant uses the MCP servers MCP_SERVERS names, as the api's does (unset: server-everything),
 * and their questions are asked here. The conversation lives in memory and is gone when the
 * session ends.
 */
void main(function* (args) {
  const servers = mcpServersFrom(process.env['MCP_SERVERS']);
  if (!servers.ok) {
    for (const problem of servers.problems) process.stderr.write(`MCP_SERVERS: ${problem}\n`);
    return yield* exit(2);
  }
  const agents = yield* exposeProductAgents(new AgentCatalog(), { mcpServers: servers.servers });
  const names = agents.names();
  const name = agentArg(args);
  const entry = name === undefined ? undefined : agents.get(name);
  if (!name || !entry) {
    process.stderr.write(
      `${name ? `No agent named "${name}". ` : ''}Usage: chat --agent=<name>; agents: ${names.join(', ')}\n`,
    );
    return yield* exit(2);
  }
  const config = claudeConfigFrom(process.env);
  if (!config.ok) {
    for (const problem of config.error) process.stderr.write(`${problem.field}: ${problem.message}\n`);
    return yield* exit(2);
  }
  const model = config.value ? new ClaudeModel(config.value) : new OfflineModel(entry.offlineRules ?? []);
  const provide = terminalServices(name);
  yield* runChatSession({
    agent: entry.definition,
    model,
    input: process.stdin,
    output: process.stdout,
    ...(provide ? { provide } : {}),
  });
});

/** What an agent's tools need, in a terminal: the concierge's activities, in memory with demo data. */
function terminalServices(name: string): (() => Operation<void>) | undefined {
  return name === 'concierge'
    ? provideActivityStore(new InMemoryActivityStore(demoActivities(), demoPeople()))
    : undefined;
}

/** `--agent=<name>`, `--agent <name>`, or the first bare argument. */
function agentArg(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg.startsWith('--agent=')) return arg.slice('--agent='.length);
    if (arg === '--agent') return args[i + 1];
  }
  return args.find((arg) => !arg.startsWith('-'));
}

/** The MCP servers the assistant uses: MCP_SERVERS when set, the embedded one otherwise. */
function mcpServersFrom(
  text: string | undefined,
): { ok: true; servers: McpServerConfig[] } | { ok: false; problems: string[] } {
  if (text === undefined || text.trim() === '') return { ok: true, servers: [embeddedMcpServer()] };
  return parseMcpServers(text);
}
