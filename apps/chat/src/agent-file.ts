import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

import { err, ok, type Result } from '@sweatpants/domain';
import type { AgentDefinition } from '@sweatpants/agent-runtime';
import type { OfflineRule } from '@sweatpants/agent-runtime/offline';

/** An agent a developer wrote in a file of their own, as the terminal chat runs it. */
export interface AgentFile {
  definition: AgentDefinition;
  /** the file's `offlineRules` export; none when it has none */
  offlineRules: readonly OfflineRule[];
}

/**
 * Loads the agent in the TypeScript or CommonJS module at `path` (relative to `cwd`): its default
 * export is an agent made with `createAgent`, and an `offlineRules` export, when there is one, is
 * what the offline model answers by. The module is required in this process, so TypeScript loads
 * through the same register hook the chat runs under, and its `@sweatpants/*` imports are the
 * chat's own modules. A missing file, a module that fails to load and one that exports no agent
 * are told apart, in words for the terminal.
 *
 * @example
 * // my-agent.ts
 * export default createAgent({ weigh }, { name: 'scales' });
 * export const offlineRules: readonly OfflineRule[] = [WEIGH_WHAT_WAS_SAID];
 */
export function loadAgentFile(path: string, cwd = process.cwd()): Result<AgentFile, string> {
  const file = resolve(cwd, path);
  if (!existsSync(file)) return err(`No agent file at ${file}.`);
  let module: unknown;
  try {
    module = createRequire(file)(file);
  } catch (error) {
    return err(`${file} did not load: ${error instanceof Error ? error.message : String(error)}`);
  }
  const exported = isObject(module) ? module : {};
  const agent = exported['default'];
  if (!isObject(agent) || !isAgentDefinition(agent['definition'])) {
    return err(`${file} exports no agent: its default export should be one made with createAgent.`);
  }
  const rules = exported['offlineRules'] ?? [];
  if (!isOfflineRules(rules)) {
    return err(
      `${file}: its offlineRules export should be a list of offline rules ({ name, when?, reply }).`,
    );
  }
  return ok({ definition: agent['definition'], offlineRules: rules });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** The parts of a definition a runner cannot do without, as `createAgent` fills them in. */
function isAgentDefinition(value: unknown): value is AgentDefinition {
  return (
    isObject(value) &&
    typeof value['name'] === 'string' &&
    Array.isArray(value['modes']) &&
    isObject(value['initial']) &&
    isObject(value['state']) &&
    typeof value['state']['apply'] === 'function' &&
    typeof value['fallbackReply'] === 'function'
  );
}

function isOfflineRules(value: unknown): value is readonly OfflineRule[] {
  return (
    Array.isArray(value) &&
    value.every(
      (rule) =>
        isObject(rule) &&
        typeof rule['name'] === 'string' &&
        typeof rule['reply'] === 'function' &&
        (rule['when'] === undefined || typeof rule['when'] === 'function'),
    )
  );
}
