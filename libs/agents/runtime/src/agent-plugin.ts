import type { Operation } from 'effection';

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
  install(agent: { readonly name: string }): Operation<void>;
}
