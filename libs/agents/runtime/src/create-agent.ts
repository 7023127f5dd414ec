import type { Json } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import * as z from 'zod';
import { defineMode, type AgentDefinition, type AgentPlugin } from './agent-definition';
import { modeReducer } from './history';
import { prompt } from './template';
import { spendRefused } from './model';
import { ToolError, type Tool, type ToolOutcome } from './tool';
import { ToolCalls } from './tool-dispatch';
import { Run } from './context';

/** The tools an agent exposes, by the name other code calls them with. */
export type ToolSet = Readonly<Record<string, Tool>>;

/**
 * One tool of an agent as other code calls it (`Agent.tools.x`): typed by the tool's input schema,
 * it answers the tool's output; the instance in context answers. What a program hands an agent
 * that uses another agent's tool without importing that agent.
 */
export type AgentToolCall<I = Json, O = Json> = (input: I) => Operation<O>;

/** `Agent.tools.x` for a tool of `T`: its input in, its output out. */
export type ToolCallOf<X> = X extends Tool<infer I, infer O> ? AgentToolCall<I, O> : never;

/**
 * Another agent's tool did not succeed: it answered an error (its message is this one's) or a
 * mode switch, which means nothing outside its own conversation. Thrown by `Agent.tools.x`; a
 * tool that lets it through fails with the message, which the model reads as an error result.
 */
export class ToolCallError extends Error {
  override readonly name = 'ToolCallError';
  constructor(
    readonly tool: string,
    readonly outcome: ToolOutcome,
  ) {
    super(
      outcome.kind === 'error' ? outcome.message : `${tool} switched modes, which only its own agent can`,
    );
  }
}

/** A started agent: the tools that answer for it in the scope it was started (or substituted) in. */
export interface AgentInstance<T extends ToolSet = ToolSet> {
  readonly agent: string;
  readonly tools: T;
}

/**
 * What `createAgent` is told besides the tools: the definition a runner drives (each part has a
 * default, so an agent of tools only is `createAgent({ bookFlight })`), and its resources.
 */
export type AgentOptions = Partial<AgentDefinition>;

/** An agent made with `createAgent`: an operation that starts it, and its tools as operations. */
export interface CreatedAgent<T extends ToolSet> extends Operation<AgentInstance<T>> {
  readonly name: string;
  /** what a runner drives (its modes, state, turn…) */
  readonly definition: AgentDefinition;
  /**
   * Each tool as an operation that resolves the agent from the caller's context: the instance a
   * parent started or substituted, else one started there (seed 004's implicit instantiation).
   * Typed by the tool's input, it answers the tool's output; a tool that does not succeed (an
   * error, an unknown tool of a substitute) throws ToolCallError. The call passes through
   * ToolCalls' middleware.
   */
  readonly tools: { readonly [K in keyof T]: ToolCallOf<T[K]> };
  /** The instance in force in this scope, or one started here (its setup run) when there is none. */
  instance(): Operation<AgentInstance<T>>;
  /** Runs `op` with `instance` answering for this agent there and below (tests, per-user data). */
  with<R>(instance: AgentInstance<T>, op: () => Operation<R>): Operation<R>;
  /** Installs `plugin` for the current scope and its children. */
  use(plugin: AgentPlugin): Operation<void>;
}

/** Agents made without a name, counted so that each has a context of its own. */
let unnamed = 0;

/**
 * Seed 004's `createAgent`: an agent is the tools it exposes plus the definition a runner drives.
 * `yield* Agent` starts an instance (its `setup` runs in the caller's scope, so its resources live
 * as long as that scope) and puts it in context; `Agent.tools.x(input)` calls a tool of the
 * instance in context, so one agent calls another's tools without holding a reference to it, and
 * a parent decides which instance its children talk to. With no instance in context, the call
 * starts one in the caller's scope, setup and all (implicit instantiation), which later calls
 * there reuse. A runner's turn runs `setup` too, so the agent's tools find their resources however
 * it was started.
 *
 * Everything but the tools is optional: without modes the agent has one mode that offers every
 * tool, and its name is made from its tools' names.
 *
 * @example
 * const Weather = createAgent({
 *   forecast: createTool('forecast').parameter(z.object({ city: z.string() })).execute(function* ({ city }) {
 *     return Ok({ city, sky: 'clear' });
 *   }),
 * });
 *
 * yield* Weather;                                          // started here, in context below
 * const { sky } = yield* Weather.tools.forecast({ city: 'Leeds' }); // typed by the tool's schema
 * yield* Weather.with(fakeWeather, () => test());          // a substitute for a subtree
 */
export function createAgent<T extends ToolSet>(tools: T, options: AgentOptions = {}): CreatedAgent<T> {
  const given = withDefaults(tools, options);
  // A call refused for the person's budget says why in the host's own words, whatever the agent's
  // fallback for a model that failed.
  const definition: AgentDefinition = {
    ...given,
    fallbackReply: (error) => (spendRefused(error) ? error.message : given.fallbackReply(error)),
  };
  const name = definition.name;
  const setup = definition.setup;
  const Current = createContext<AgentInstance<T>>(
    options.name ? `sweatpants.agent.${name}` : `sweatpants.agent.${name}#${++unnamed}`,
  );
  const fresh = (): AgentInstance<T> => ({ agent: name, tools });

  function* start(): Operation<AgentInstance<T>> {
    if (setup) yield* setup();
    const started = fresh();
    yield* Current.set(started);
    return started;
  }

  function* instance(): Operation<AgentInstance<T>> {
    return (yield* Current.get()) ?? (yield* start());
  }

  const callers = Object.fromEntries(
    Object.keys(tools).map((key) => [
      key,
      function* (input: unknown = {}): Operation<unknown> {
        const current = yield* instance();
        const tool = current.tools[key];
        const outcome = tool
          ? yield* asAuthor(current.agent, () => ToolCalls.operations.execute(tool, input as Json))
          : ToolError(`${name} has no tool ${key} in this scope`);
        if (outcome.kind !== 'success') throw new ToolCallError(key, outcome);
        return outcome.value;
      },
    ]),
  ) as unknown as CreatedAgent<T>['tools'];

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
      return yield* start();
    },
  };
}

/**
 * Runs `op` writing as `agent` (seed 004: the coroutine context gives the agent's identity for
 * attribution): what another agent's tool writes in a turn (its questions, its notices) is
 * authored by that agent, so a question the donation helper asks in the coach's conversation says
 * who asks. Outside a turn there is nothing to write, and nothing changes.
 */
function* asAuthor<R>(agent: string, op: () => Operation<R>): Operation<R> {
  const run = yield* Run.get();
  const authorId = `agent:${agent}`;
  if (!run || run.authorId === authorId) return yield* op();
  return yield* Run.with({ ...run, authorId }, op);
}

/** The mode of an agent defined by its tools alone. */
const TOOLS_MODE = 'tools';

/** The definition `options` gives, each missing part filled in for an agent of `tools`. */
function withDefaults(tools: ToolSet, options: AgentOptions): AgentDefinition {
  const all = Object.values(tools);
  const name = options.name ?? (all.map((t) => t.name).join('+') || 'agent');
  const modes = options.modes ?? [
    defineMode({
      name: TOOLS_MODE,
      data: z.null(),
      template: () => prompt`You help by using these tools: ${all.map((t) => t.name).join(', ')}.`,
      tools: () => all,
    }),
  ];
  const initial = options.initial ?? { mode: modes[0]?.name ?? TOOLS_MODE, data: null };
  return {
    ...options,
    name,
    modes,
    initial,
    state: options.state ?? modeReducer(name, initial),
    fallbackReply: options.fallbackReply ?? (() => 'I could not do that just now; please ask again.'),
  };
}
