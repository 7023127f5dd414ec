import { foldPath, type TreeNode } from '@sweatpants/domain';
import { run } from 'effection';
import { consoleLog } from './context';
import type { RunnerOptions } from './runner-options';

/**
 * Runs the agent's `followHead` at the path a runner opens on, with the services `provide` sets,
 * before the runner asks or takes anything. A failure (the agent's store is down) is logged and
 * the runner opens all the same: the next open tries again.
 */
export async function followHead(options: RunnerOptions, path: readonly TreeNode[]): Promise<void> {
  const { agent, provide, conversationId } = options;
  const follow = agent.followHead;
  if (!follow) return;
  const state = foldPath(agent.state, path);
  try {
    await run(function* () {
      if (provide) yield* provide();
      yield* follow(state, conversationId);
    });
  } catch (error) {
    (options.logs ?? consoleLog).write('error', `following HEAD failed in ${conversationId}`, {
      message: error instanceof Error ? error.message : String(error),
    });
  }
}
