import type { Operation } from 'effection';
import type { AgentDefinition } from './agent-definition';

/**
 * An extension of an agent (seed 004's plugin system): installed with `yield* agent.use(plugin)`
 * in a scope, or listed in the definition's `plugins`, which the runner installs at every turn of
 * the agent's conversations. It installs middleware or services for the scope it runs in.
 *
 * @example
 * const quiet: AgentPlugin = {
 *   name: 'no debug logs',
 *   *install() {
 *     yield* Agent.around({ *log([level, ...rest], next) { if (level !== 'debug') yield* next(level, ...rest); } });
 *   },
 * };
 */
export interface AgentPlugin {
  readonly name: string;
  /** `agent`: the agent it is installed for, which a plugin may check it is compatible with */
  install(agent: AgentDefinition): Operation<void>;
}
