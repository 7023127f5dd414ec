import { exit, main } from 'effection';
import { ClaudeModel, claudeConfigFrom } from '../model/claude';
import { OfflineModel } from '../model/offline';
import { loadAgentRegistry } from './agent-registry';
import { runChatSession } from './chat-session';

/**
 * Talk to an agent in the terminal, to walk its flows by hand:
 *
 *   npx nx run agents:chat --agent=tidying
 *   node -r ./libs/tree-store/bench/register.js libs/agents/src/cli/chat-cli.ts tidying
 *
 * Claude answers when ANTHROPIC_API_KEY is set (ANTHROPIC_MODEL, ANTHROPIC_MAX_TOKENS and
 * ANTHROPIC_BASE_URL as for the api), the offline model with the agent's rules otherwise. The
 * conversation lives in memory and is gone when the session ends.
 */
void main(function* (args) {
  const registry = loadAgentRegistry();
  const names = Object.keys(registry.agents);
  const name = agentArg(args);
  const agent = name === undefined ? undefined : registry.agents[name];
  if (!name || !agent) {
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
  const model = config.value ? new ClaudeModel(config.value) : new OfflineModel(registry.offlineRules(name));
  const provide = registry.services(name);
  yield* runChatSession({
    agent,
    model,
    input: process.stdin,
    output: process.stdout,
    ...(provide ? { provide } : {}),
  });
});

/** `--agent=<name>`, `--agent <name>`, or the first bare argument. */
function agentArg(args: readonly string[]): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg.startsWith('--agent=')) return arg.slice('--agent='.length);
    if (arg === '--agent') return args[i + 1];
  }
  return args.find((arg) => !arg.startsWith('-'));
}
