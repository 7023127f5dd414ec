import type { ElicitRequest, Json, StateReducer, TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import type * as z from 'zod';
import type { ModeSwitch, Tool } from './tool';

/**
 * A mode (seed 001): a sum-type case with its data. The mode picks the system prompt (its template
 * rendered with its data), the tools the model may call, and the structured output it answers
 * with, whose value updates the data.
 */
export interface ModeDefinition<D extends Json, O extends Json> {
  name: string;
  data: z.ZodType<D>;
  template: (data: D) => string;
  tools: (data: D) => readonly Tool[];
  output?: { schema: z.ZodType<O>; update: (data: D, output: O) => D };
}

/** A mode with its types erased at the boundary: data is parsed back with the mode's schema. */
export interface Mode {
  name: string;
  parseData(data: Json): Json;
  render(data: Json): string;
  tools(data: Json): readonly Tool[];
  output?: { schema: z.ZodType; update(data: Json, output: Json): Json };
}

/**
 * Declares a mode with its data's own type (seed 001) and erases the type for the runner: every
 * use parses the data with the mode's schema first, so a template or a tool list never sees data
 * of the wrong shape, and a switch into the mode with bad data fails loudly.
 *
 * @example
 * export const interviewMode: Mode = defineMode({
 *   name: 'interview',
 *   data: z.object({ activityIds: z.array(z.string()) }),
 *   template: (data) => prompt`You are interviewing the user about ${data.activityIds.length} items.`,
 *   tools: () => [queryActivities, presentOptions, finishReview],
 * });
 */
export function defineMode<D extends Json, O extends Json = Json>(def: ModeDefinition<D, O>): Mode {
  const parse = (data: Json): D => {
    const parsed = def.data.safeParse(data);
    if (!parsed.success) throw new Error(`mode ${def.name}: its data does not fit: ${parsed.error.message}`);
    return parsed.data;
  };
  const output = def.output;
  return {
    name: def.name,
    parseData: parse,
    render: (data) => def.template(parse(data)),
    tools: (data) => def.tools(parse(data)),
    ...(output
      ? {
          output: {
            schema: output.schema,
            update: (data: Json, value: Json) => output.update(parse(data), output.schema.parse(value)),
          },
        }
      : {}),
  };
}

/** How a turn ended: done, a break into another mode (seed 001), or failed with a code. */
export type TurnEnd =
  { kind: 'done' } | { kind: 'break'; next: ModeSwitch } | { kind: 'failed'; code: string };

/**
 * Everything a runner needs to drive an agent's conversations: its modes and where it starts, the
 * fold that is its state, and what it says when the model fails. Plain data and functions, so the
 * api, the worker and the terminal chat run the same agent from one value (`createAgent`'s
 * `definition`).
 */
export interface AgentDefinition {
  /** 'tidying', 'concierge': nodes are authored by `agent:<name>` */
  name: string;
  /** every mode a conversation may be in; `mode` nodes and ToolBreaks name one of them */
  modes: readonly Mode[];
  /** the mode and data of a conversation with no `mode` node on its path yet */
  initial: { mode: string; data: Json };
  /** what the user reads when the model cannot answer (seed 002's fallbacks) */
  fallbackReply(error: { code: string; message: string }): string;
  /**
   * installed at the start of every turn of the agent's conversations: middleware of its own, such
   * as when to ask for compaction (`compactAfter(n)`; otherwise CompactionPolicy's default)
   */
  plugins?: readonly AgentPlugin[];
  /** tool calls one turn may make before it is stopped */
  maxSteps?: number;
  /**
   * The session's state as a fold of the path (DESIGN.md, event-sourced state): what
   * `GET .../state` serves and what the agent decides from. Rewinding the path rewinds it.
   */
  state: StateReducer;
  /** what the `chat` prompt says while the agent waits for the user's next message */
  chatPrompt?(state: Json): { message: string; placeholder?: string };
  /**
   * acquires what the agent's tools need (a database handle, a client), in the scope that starts
   * it: `yield* Agent`, a first `Agent.tools.x` call with none started, or a runner's turn
   */
  setup?(): Operation<void>;
  /** a turn of the agent's own (the tidying coach's OODA loop); `runTurn` when absent */
  turn?(agent: AgentDefinition): Operation<TurnEnd>;
  /**
   * what `runTurn` tells the model in a side quest about the question the words were said at
   * (./aside-note), which may read what the agent recorded on `path` when it asked; the runtime's
   * `waitingQuestionNote` when absent
   */
  asideNote?(question: ElicitRequest, path: readonly TreeNode[]): string;
  /**
   * Brings what the agent's tools changed outside the tree in line with HEAD, whose state is
   * `state`: run as a runner opens, before it asks or takes anything, with the services `provide`
   * sets. A rewind leaves a branch whose changes no longer hold; a recover returns to one whose
   * changes hold again. Every open runs it, so a move whose runner died before it ran is caught up.
   */
  followHead?(state: Json, conversationId: string): Operation<void>;
}

/**
 * The agent's mode called `name`. Throws when there is none: a mode named on the path or by a tool
 * that the agent does not have is a bug, not something a turn can go on from.
 *
 * @example
 * const { mode: modeName, data } = modeStateOf(agent, run.journal.path());
 * const mode = modeOf(agent, modeName);
 * const tools = mode.tools(data);
 * const sampled = yield* sample({ system: mode.render(data), messages, tools: tools.map((t) => t.spec) });
 */
export function modeOf(agent: AgentDefinition, name: string): Mode {
  const mode = agent.modes.find((m) => m.name === name);
  if (!mode) throw new Error(`${agent.name} has no mode ${name}`);
  return mode;
}

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
