import { exit, main, type Operation } from 'effection';
import { ClaudeModel, claudeConfigFrom } from '@sweatpants/agent-claude';
import {
  demoActivities,
  demoPeople,
  InMemoryActivityStore,
  provideActivityStore,
} from '@sweatpants/agent-concierge';
import { parseMcpServers, type AgentDefinition, type McpServerConfig } from '@sweatpants/agent-runtime';
import { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { OfflineModel, type OfflineRule } from '@sweatpants/agent-runtime/offline';
import { embeddedMcpServer, exposeProductAgents } from '@sweatpants/product-agents';
import { loadAgentFile } from './agent-file';
import { CHAT_USAGE, parseChatArgs } from './chat-args';
import { runChatSession } from './chat-session';

/**
 * Talk to an agent in the terminal, to walk its flows by hand: one `exposeProductAgents`
 * registers, by name, or one in a file of a developer's own (`agent-file.ts`: its default export
 * made with `createAgent`, its `offlineRules` export, if any, for the offline model):
 *
 *   npx nx run chat:serve --agent=tidying
 *   node -r ./libs/tree-store/bench/register.js apps/chat/src/chat-cli.ts tidying
 *   node -r ./libs/tree-store/bench/register.js apps/chat/src/chat-cli.ts ./my-agent.ts --model=offline
 *
 * `--model=claude` runs on Claude (ANTHROPIC_API_KEY, with ANTHROPIC_MODEL, ANTHROPIC_MAX_TOKENS
 * and ANTHROPIC_BASE_URL as for the api), `--model=offline` on the offline model with the agent's
 * rules; unchosen, Claude answers when the key is set. The assistant uses the MCP servers
 * MCP_SERVERS names, as the api's does (unset: server-everything), and their questions are asked
 * here. The conversation lives in memory and is gone when the session ends.
 */
void main(function* (args) {
  const parsed = parseChatArgs(args);
  if (!parsed.ok) return yield* usage(parsed.error);
  const { target, model: chosen } = parsed.value;
  const config = claudeConfigFrom(process.env);
  if (!config.ok) {
    for (const problem of config.error) process.stderr.write(`${problem.field}: ${problem.message}\n`);
    return yield* exit(2);
  }
  const claude = config.value;
  if (chosen === 'claude' && !claude) {
    return yield* usage(
      '--model=claude needs ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL for another endpoint).',
    );
  }
  let agent: {
    definition: AgentDefinition;
    offlineRules: readonly OfflineRule[];
    provide?: () => Operation<void>;
  };
  if (target?.kind === 'file') {
    const loaded = loadAgentFile(target.path);
    if (!loaded.ok) return yield* usage(loaded.error);
    agent = loaded.value;
  } else {
    const servers = mcpServersFrom(process.env['MCP_SERVERS']);
    if (!servers.ok) {
      for (const problem of servers.problems) process.stderr.write(`MCP_SERVERS: ${problem}\n`);
      return yield* exit(2);
    }
    const agents = yield* exposeProductAgents(new AgentCatalog(), { mcpServers: servers.servers });
    const entry = target ? agents.get(target.name) : undefined;
    if (!target || !entry) {
      const unknown = target ? `No agent named "${target.name}". ` : '';
      return yield* usage(`${unknown}Agents: ${agents.names().join(', ')}.`);
    }
    const provide = terminalServices(target.name);
    agent = {
      definition: entry.definition,
      offlineRules: entry.offlineRules ?? [],
      ...(provide ? { provide } : {}),
    };
  }
  const model =
    claude && chosen !== 'offline' ? new ClaudeModel(claude) : new OfflineModel(agent.offlineRules);
  yield* runChatSession({
    agent: agent.definition,
    model,
    input: process.stdin,
    output: process.stdout,
    ...(agent.provide ? { provide: agent.provide } : {}),
  });
});

/** Says what was wrong and how the chat is started, and ends it with status 2. */
function* usage(problem: string): Operation<void> {
  process.stderr.write(`${problem}\n${CHAT_USAGE}\n`);
  yield* exit(2);
}

/** What an agent's tools need, in a terminal: the concierge's activities, in memory with demo data. */
function terminalServices(name: string): (() => Operation<void>) | undefined {
  return name === 'concierge'
    ? provideActivityStore(new InMemoryActivityStore(demoActivities(), demoPeople()))
    : undefined;
}

/** The MCP servers the assistant uses: MCP_SERVERS when set, the embedded one otherwise. */
function mcpServersFrom(
  text: string | undefined,
): { ok: true; servers: McpServerConfig[] } | { ok: false; problems: string[] } {
  if (text === undefined || text.trim() === '') return { ok: true, servers: [embeddedMcpServer()] };
  return parseMcpServers(text);
}
