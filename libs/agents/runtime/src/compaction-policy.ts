import type { TreeNode } from '@sweatpants/domain';
import { run, type Api, type Operation } from 'effection';
import { createApi } from 'effection/experimental';
import type { AgentDefinition, AgentPlugin } from './agent-definition';
import { sinceSummary } from './history';
import type { ModelUsage } from './model';

/**
 * The size of the next request, in tokens, above which a conversation asks to be compacted: well
 * inside a 200k context, and where a cached history starts to cost more to read than to summarise.
 */
export const DEFAULT_COMPACT_AT_TOKENS = 60_000;

/**
 * Nodes on HEAD's path since the last summary above which a conversation asks to be compacted
 * when no model call since then says how big its requests are (a path written before usage was
 * recorded, or one that has not called the model since its last compaction).
 */
export const DEFAULT_COMPACT_AFTER = 200;

/**
 * How many tokens the next model call will send, from the last call's usage on `path`: all the
 * input it sent (fresh, written to the cache, read from it) plus its output, which the next call
 * sends back. Only a call made since the last summary counts (nodes rebased onto a summary keep
 * their old usage, from before the history shrank); null when there is none.
 *
 * @example
 * const tokens = nextRequestTokens(journal.path());
 * if (tokens !== null && tokens > 60_000) yield* log('info', 'a long conversation', { tokens });
 */
export function nextRequestTokens(path: readonly TreeNode[]): number | null {
  const summaryAt = path.findLastIndex((n) => n.kind === 'summary');
  const since = summaryAt < 0 ? '' : (path[summaryAt]?.createdAt ?? '');
  for (let i = path.length - 1; i > summaryAt; i--) {
    const node = path[i];
    if (node?.kind !== 'assistant' || node.payload['purpose'] !== undefined || node.createdAt < since)
      continue;
    const usage = node.payload['usage'] as Partial<ModelUsage> | undefined;
    if (typeof usage?.inputTokens !== 'number') continue;
    return (
      usage.inputTokens +
      (usage.cacheWriteTokens ?? 0) +
      (usage.cacheReadTokens ?? 0) +
      (usage.outputTokens ?? 0)
    );
  }
  return null;
}

/** What a summariser is told to keep when an agent says nothing of its own. */
export const DEFAULT_SUMMARY_INSTRUCTIONS =
  'You compact a conversation between a user and an assistant. Summarise the conversation so far ' +
  'in a few short paragraphs for the assistant to continue from: what the user wants, what was ' +
  'decided or done, facts, names and numbers that matter later, and open questions. Plain text.';

/** How an agent's summaries are written. */
export interface SummaryPolicy {
  /** what the summariser is told to keep (its system prompt) */
  instructions: string;
  /** the model that writes them, of the deployment's provider; the deployment's own when absent */
  model?: string;
}

/** The questions CompactionPolicy answers, each one middleware can take over for a scope. */
export interface CompactionPolicyApi {
  /**
   * Whether the conversation should be compacted now, given HEAD's path as the runner holds it:
   * from its latest summaries (root first when it has none), which is all sinceSummary and
   * nextRequestTokens look at.
   */
  due(path: readonly TreeNode[]): Operation<boolean>;
  /** How its summaries are written: what they keep, and by which model. */
  summary(): Operation<SummaryPolicy>;
}

/**
 * When a conversation asks to be compacted and how its summary is written, as middleware (seed
 * 004: "compaction via middleware"): the runner asks `due` at the start of every turn, the
 * compaction job asks `summary` before it summarises, and an agent's plugins (`compactAfter`,
 * `summariseAs`) answer for its conversations. The defaults: the next request would carry more
 * than DEFAULT_COMPACT_AT_TOKENS (more than DEFAULT_COMPACT_AFTER nodes since the last summary
 * when no call says); DEFAULT_SUMMARY_INSTRUCTIONS, by the deployment's model.
 *
 * @example
 * yield* CompactionPolicy.around({
 *   *due([path]) {
 *     return sinceSummary(path) > 120;
 *   },
 * });
 * if (yield* CompactionPolicy.operations.due(journal.path())) {
 *   void port.requestCompaction({ conversationId, head: journal.durableHead });
 * }
 */
export const CompactionPolicy: Api<CompactionPolicyApi> = createApi<CompactionPolicyApi>(
  'sweatpants.compaction',
  {
    *due(path) {
      return overBudget(path, DEFAULT_COMPACT_AT_TOKENS);
    },
    *summary() {
      return { instructions: DEFAULT_SUMMARY_INSTRUCTIONS };
    },
  },
);

/** Whether the next request passes `budget` tokens; by the node count while no call says. */
function overBudget(path: readonly TreeNode[], budget: number): boolean {
  const next = nextRequestTokens(path);
  return next === null ? sinceSummary(path) > DEFAULT_COMPACT_AFTER : next > budget;
}

/**
 * A plugin: the agent's conversations ask for compaction once their next request would carry more
 * than `tokens` tokens (nextRequestTokens); by nodes since the last summary, at the default count,
 * while no call says.
 *
 * @example
 * export const Donations = createAgent(tools, { name: 'donations', …, plugins: [compactAtTokens(20_000)] });
 */
export function compactAtTokens(tokens: number): AgentPlugin {
  return {
    name: `compact at ${tokens} tokens`,
    *install() {
      yield* CompactionPolicy.around({
        *due([path]) {
          return overBudget(path, tokens);
        },
      });
    },
  };
}

/**
 * A plugin: the agent's conversations ask for compaction once more than `nodes` nodes follow the
 * last summary, whatever their size.
 *
 * @example
 * export const concierge = createAgent(conciergeTools, { name: 'concierge', …, plugins: [compactAfter(120)] });
 */
export function compactAfter(nodes: number): AgentPlugin {
  return {
    name: `compact after ${nodes} nodes`,
    *install() {
      yield* CompactionPolicy.around({
        *due([path]) {
          return sinceSummary(path) > nodes;
        },
      });
    },
  };
}

/**
 * A plugin: the agent's summaries are written to `instructions` (what matters to keep for it),
 * and by `options.model` when it names one (a cheaper model of the same provider for an agent
 * whose conversations are simple).
 *
 * @example
 * plugins: [summariseAs('Keep which items went to which pile, and what is still undecided.')]
 * plugins: [summariseAs('Keep each item and where it went.', { model: 'claude-haiku-4-5' })]
 */
export function summariseAs(instructions: string, options: { model?: string } = {}): AgentPlugin {
  const policy: SummaryPolicy = { instructions, ...(options.model ? { model: options.model } : {}) };
  return {
    name: 'summaries of its own',
    *install() {
      yield* CompactionPolicy.around({
        *summary() {
          return policy;
        },
      });
    },
  };
}

/**
 * How `agent`'s summaries are written: its plugins asked, outside any conversation's turn. For
 * the compaction job, which summarises from a worker where no turn of the agent runs.
 *
 * @example
 * const text = await summariser.summarise(range.nodes, signal, await summaryPolicy(agent));
 */
export function summaryPolicy(agent: AgentDefinition): Promise<SummaryPolicy> {
  return run(function* () {
    for (const plugin of agent.plugins ?? []) yield* plugin.install(agent);
    return yield* CompactionPolicy.operations.summary();
  });
}

/**
 * What `agent`'s summaries are told to keep (`summaryPolicy(agent).instructions`).
 *
 * @example
 * const instructions = await summaryInstructions(agents.definition('tidying'));
 */
export async function summaryInstructions(agent: AgentDefinition): Promise<string> {
  return (await summaryPolicy(agent)).instructions;
}
