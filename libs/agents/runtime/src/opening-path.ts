import { summaryStateKey, type Json, type Result, type TreeNode } from '@sweatpants/domain';
import type { AgentDefinition } from './agent-definition';
import { MODE_STATE_KEY } from './history';
import type { ConversationPort, PortError } from '@sweatpants/domain';

/**
 * The path a runner opens on: HEAD's path from its latest summaries (`port.pathFromSummary`), so
 * that opening a conversation costs the same whatever its depth. The summary the read begins with stands for everything above it
 * only if it keeps the agent's state and mode; one that does not (written before summaries kept
 * states, or for another version of the agent's reducer) sends the runner to the whole path,
 * where the folds find what they need above it.
 *
 * @example
 * const path = await openingPath(port, conversationId, agent);
 * if (!path.ok) throw new Error(path.error.message);
 * const state = foldPath(agent.state, path.value); // as folding root → HEAD would give
 */
export async function openingPath(
  port: ConversationPort,
  conversationId: string,
  agent: AgentDefinition,
): Promise<Result<TreeNode[], PortError>> {
  const read = await port.pathFromSummary(conversationId);
  if (!read.ok) return read;
  const [first] = read.value;
  if (first?.kind !== 'summary' || keepsStates(agent, first)) return read;
  return port.path(conversationId);
}

/**
 * The turn a runner opened on `path` must resume, if one was cut off (a crash, a restart): the path
 * down to its user message, and what the turn recorded after it. A turn ends with its answer or a
 * cancel node; one without either was cut off. Replaying a finished turn would also be harmless (it
 * writes nothing), but it is not needed.
 *
 * The turn begins at the person's message, not at a synthetic one a mode switch wrote: a turn
 * chained on that is replayed with the chain, and one written in a side quest (a transition in the
 * turn run on words said at a card) begins no turn at all: what follows it is the rest of the turn
 * whose card it was.
 */
export function cutOffTurn(
  path: readonly TreeNode[],
): { above: TreeNode[]; recorded: TreeNode[] } | undefined {
  const said = path.findLastIndex((n) => n.kind === 'user' && n.payload['synthetic'] !== true);
  // (a path read from a summary may hold the synthetic message alone)
  const start = said >= 0 ? said : path.findLastIndex((n) => n.kind === 'user');
  if (start < 0) return undefined;
  const recorded = path.slice(start + 1);
  return recorded.some((n) => n.kind === 'cancel')
    ? undefined
    : { above: path.slice(0, start + 1), recorded };
}

/** Whether a summary keeps both folds the runner takes from it: the agent's state and its mode. */
export function keepsStates(agent: AgentDefinition, summary: TreeNode): boolean {
  const states = (summary.payload as { states?: { [key: string]: Json } }).states;
  return states?.[summaryStateKey(agent.state)] !== undefined && states[MODE_STATE_KEY] !== undefined;
}
