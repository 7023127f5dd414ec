import type { TreeNode } from '@sweatpants/domain';
import type { Api, Operation } from 'effection';
import { createApi } from 'effection/experimental';
import type { AgentPlugin } from './agent-plugin';
import { sinceSummary } from './history';

/** Nodes on HEAD's path since the last summary above which a conversation asks to be compacted. */
export const DEFAULT_COMPACT_AFTER = 200;

export interface CompactionPolicyApi {
  /** Whether the conversation should be compacted now, given HEAD's path (root first). */
  due(path: readonly TreeNode[]): Operation<boolean>;
}

/**
 * When a conversation asks to be compacted, as middleware (seed 004: "compaction via
 * middleware"): the runner asks `due` at the start of every turn, and an agent's plugins (see
 * `compactAfter`) decide for its conversations. The default: more than DEFAULT_COMPACT_AFTER nodes
 * since the last summary.
 */
export const CompactionPolicy: Api<CompactionPolicyApi> = createApi<CompactionPolicyApi>(
  'sweatpants.compaction',
  {
    *due(path) {
      return sinceSummary(path) > DEFAULT_COMPACT_AFTER;
    },
  },
);

/**
 * A plugin: the agent's conversations ask for compaction once more than `nodes` nodes follow the
 * last summary.
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
