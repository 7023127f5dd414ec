import type { Json } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import type { AgentDefinition, AgentPlugin } from './agent-definition';
import { spendRefused } from './model';
import { ToolCalls, ToolError, type Tool, type ToolOutcome } from './tool';

/** The tools an agent exposes, by the name other code calls them with. */
export type ToolSet = Readonly<Record<string, Tool>>;

/**
 * One tool of an agent as other code calls it (`Agent.tools.x`): the instance in context answers.
 * What a program hands an agent that uses another agent's tool without importing that agent.
 */
export type AgentToolCall = (input?: Json) => Operation<ToolOutcome>;

/** A started agent: the tools that answer for it in the scope it was started (or substituted) in. */
export interface AgentInstance<T extends ToolSet = ToolSet> {
  readonly agent: string;
  readonly tools: T;
}

/** What `createAgent` is told besides the tools: the definition a runner drives, and its resources. */
export type AgentOptions = AgentDefinition & {
  /** acquires what the agent's tools need (a database handle, a client), bound to the starting scope */
  setup?: () => Operation<void>;
};

/** An agent made with `createAgent`: an operation that starts it, and its tools as operations. */
export interface CreatedAgent<T extends ToolSet> extends Operation<AgentInstance<T>> {
  readonly name: string;
  /** what a runner drives (its modes, state, turn…) */
  readonly definition: AgentDefinition;
  /**
   * Each tool as an operation that resolves the agent from the caller's context: the instance a
   * parent started or substituted, else a fresh one (seed 004's implicit instantiation). The call
   * passes through ToolCalls' middleware; an unknown tool of a substitute answers ToolError.
   */
  readonly tools: { readonly [K in keyof T]: AgentToolCall };
  /** The instance in force in this scope, or a fresh one. */
  instance(): Operation<AgentInstance<T>>;
  /** Runs `op` with `instance` answering for this agent there and below (tests, per-user data). */
  with<R>(instance: AgentInstance<T>, op: () => Operation<R>): Operation<R>;
  /** Installs `plugin` for the current scope and its children. */
  use(plugin: AgentPlugin): Operation<void>;
}

/**
 * Seed 004's `createAgent`: an agent is the tools it exposes plus the definition a runner drives.
 * `yield* Agent` starts an instance (its `setup` runs in the caller's scope, so its resources live
 * as long as that scope) and puts it in context; `Agent.tools.x(input)` calls a tool of the
 * instance in context, so one agent calls another's tools without holding a reference to it, and
 * a parent decides which instance its children talk to.
 *
 * @example
 * const Weather = createAgent(
 *   { forecast: createTool('forecast').parameter(z.object({ city: z.string() })).execute(function* ({ city }) {
 *     return ToolSuccess({ city, sky: 'clear' });
 *   }) },
 *   { name: 'weather', modes: [chatMode], initial: { mode: 'chat', data: {} }, state: nothingToFold,
 *     fallbackReply: () => 'The sky is hard to read just now.' },
 * );
 *
 * yield* Weather;                                   // started here, in context below
 * yield* Weather.tools.forecast({ city: 'Leeds' }); // from any tool of any agent in this scope
 * yield* Weather.with(fakeWeather, () => test());   // a substitute for a subtree
 */
export function createAgent<T extends ToolSet>(tools: T, options: AgentOptions): CreatedAgent<T> {
  const { setup, ...given } = options;
  // A call refused for the person's budget says why in the host's own words, whatever the agent's
  // fallback for a model that failed.
  const definition: AgentDefinition = {
    ...given,
    fallbackReply: (error) => (spendRefused(error) ? error.message : given.fallbackReply(error)),
  };
  const name = definition.name;
  const Current = createContext<AgentInstance<T>>(`sweatpants.agent.${name}`);
  const fresh = (): AgentInstance<T> => ({ agent: name, tools });

  function* instance(): Operation<AgentInstance<T>> {
    return (yield* Current.get()) ?? fresh();
  }

  const callers = Object.fromEntries(
    Object.keys(tools).map((key) => [
      key,
      function* (input: Json = {}): Operation<ToolOutcome> {
        const current = yield* instance();
        const tool = current.tools[key];
        if (!tool) return ToolError(`${name} has no tool ${key} in this scope`);
        return yield* ToolCalls.operations.execute(tool, input);
      },
    ]),
  ) as CreatedAgent<T>['tools'];

  return {
    name,
    definition,
    tools: callers,
    instance,
    with: (substitute, op) => Current.with(substitute, op),
    *use(plugin) {
      yield* plugin.install(definition);
    },
    *[Symbol.iterator]() {
      if (setup) yield* setup();
      const started = fresh();
      yield* Current.set(started);
      return started;
    },
  };
}
