import type { Json, StateReducer } from '@sweatpants/domain';
import type { Operation } from 'effection';
import type * as z from 'zod';
import type { AgentPlugin } from './agent-plugin';
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

export interface AgentDefinition {
  /** 'tidying', 'concierge': nodes are authored by `agent:<name>` */
  name: string;
  modes: readonly Mode[];
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
  /** a turn of the agent's own (the tidying coach's OODA loop); `runTurn` when absent */
  turn?(agent: AgentDefinition): Operation<TurnEnd>;
}

export function modeOf(agent: AgentDefinition, name: string): Mode {
  const mode = agent.modes.find((m) => m.name === name);
  if (!mode) throw new Error(`${agent.name} has no mode ${name}`);
  return mode;
}
