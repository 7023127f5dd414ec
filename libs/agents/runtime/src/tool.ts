import type { Json, Photo } from '@sweatpants/domain';
import { Err as effectionErr, type Operation, type Result } from 'effection';
import * as z from 'zod';
import type { ToolSpec } from './model';

/**
 * Tools (seed 002). A tool's input is a zod schema, sent to the model as JSON schema and checked
 * before the tool runs. A tool ends in one of three ways: ToolSuccess (the turn goes on with the
 * result), ToolError (reported to the model as an error result: the model can correct itself),
 * ToolBreak (seed 001: the turn ends and the next starts in the mode the break names), ToolReply
 * (the result settles the turn: its words are the turn's last, said without another model call).
 */

/** The mode a ToolBreak switches to, with the data the new mode starts from. */
export interface ModeSwitch {
  mode: string;
  data: Json;
}

/**
 * How a tool ended, as the dispatcher records it in the tool_result node and the model reads it;
 * `O` is what a success carries, which another agent calling the tool gets back.
 */
export type ToolOutcome<O = Json> =
  | {
      kind: 'success';
      value: O;
      reply?: string;
      /** images the tool got (an MCP server's), kept as photos: the model and the person see them */
      photos?: Photo[];
    }
  | { kind: 'error'; message: string }
  | { kind: 'break'; text: string; next: ModeSwitch };

/**
 * The tool worked: `value` goes to the model as its result and the turn goes on.
 *
 * @example
 * return ToolSuccess({ updated_count: updated.value.updatedCount, activity_ids: updated.value.activityIds });
 */
export const ToolSuccess = <O extends Json>(value: O): ToolOutcome<O> => ({ kind: 'success', value });
/**
 * The tool could not do it: `message` goes to the model as an error result, which it can correct
 * (a bad id, a refused update), so say what was wrong and what would work.
 *
 * @example
 * if (unknown.length > 0) return ToolError(`present_options: unknown activity ids ${unknown.join(', ')}`);
 */
export const ToolError = (message: string): ToolOutcome<never> => ({ kind: 'error', message });
/**
 * The turn ends here and the next starts in `next.mode` (seed 001's transition): `text` becomes
 * the synthetic user message the next turn answers.
 *
 * @example
 * return ToolBreak(`${REVIEW_STARTED} Review ${what}.`, { mode: 'interview', data: { activityIds: ids } });
 */
export const ToolBreak = (text: string, next: ModeSwitch): ToolOutcome<never> => ({
  kind: 'break',
  text,
  next,
});
/**
 * The tool worked and its result settles the turn (seed 004: a structured response, a tap on a
 * card, is processed by the backend directly): `value` is recorded as the result the model reads
 * later, and `reply` is said to the person at once, ending the turn without another model call.
 *
 * @example
 * return ToolReply({ item, pile: 'out' }, `The ${item} goes out, to the kitchen. What is next?`);
 */
export const ToolReply = <O extends Json>(value: O, reply: string): ToolOutcome<O> => ({
  kind: 'success',
  value,
  reply,
});

/**
 * Effection's `Err`, typed as failing with nothing to succeed with: beside `Ok(value)` in a tool,
 * the tool's output keeps the value's type (effection's own `Err` is a Result of unknown, which
 * swallows it). Import `Ok` and `Err` from the runtime in a tool.
 *
 * @example
 * if (item === 'the moon') return Err(new Error('too heavy to weigh'));
 * return Ok({ item, kg: 1.5 }); // the tool's output is { item: string; kg: number }
 */
export const Err = (cause: unknown): Result<never> => effectionErr<never>(cause);
export { Ok } from 'effection';

/**
 * A tool as the runtime holds it (`createTool(...).execute(...)` makes one): what the model is
 * offered, and the operation that checks its input and runs. `I` and `O` are its input (its zod
 * schema's type) and what a success carries: another agent's `Agent.tools.x(input)` is typed by them.
 */
export interface Tool<I = unknown, O = unknown> {
  readonly name: string;
  readonly description: string;
  readonly spec: ToolSpec;
  /**
   * The tool changes something outside the tree (a database of the agent's own): everything that
   * led to the call is stored before it runs, so a rebuilt runner finds the call it made.
   */
  readonly outsideEffects: boolean;
  /** checks the model's input, then runs */
  run(input: Json): Operation<ToolOutcome>;
  /** the types of its input and output, for the compiler only: never set */
  readonly types?: { input: I; output: O };
}

/** What a tool's body may answer: a ToolOutcome, effection's `Ok`/`Err` as the seed writes, or nothing. */
export type ToolAnswer<O = unknown> = ToolOutcome<O> | Result<O> | void;

/**
 * A tool's `execute`: the body, typed by the tool's input, and the tool it makes, typed by what
 * the body succeeds with. Two readings, because TypeScript infers either well but not both at
 * once: one output type (so that an `Err(...)` beside `Ok(value)` takes the value's type), else
 * the union of every shape the body succeeds with.
 */
export interface Execute<I> {
  <O>(body: (input: I) => Operation<ToolAnswer<O>>): Tool<I, O>;
  <A extends ToolAnswer>(body: (input: I) => Operation<A>): Tool<I, OutputOf<A>>;
}

/**
 * The output a tool's answers type it with: every value it succeeds with (a union, when it
 * answers several shapes), null for nothing.
 *
 * @example
 * type Out = OutputOf<Result<{ kg: number }> | ToolOutcome<never>>; // { kg: number }
 */
export type OutputOf<A> = A extends { kind: 'success'; value: infer V }
  ? V
  : A extends { ok: true; value: infer V }
    ? // an `Err(...)` is a Result of unknown: it succeeds with nothing
      unknown extends V
      ? never
      : V
    : A extends void | undefined
      ? null
      : never;

/**
 * `createTool(name).description(...).parameter(schema).execute(function* (input) {...})`, as seed
 * 004 writes it (`.input(schema)` is the same; with neither, the tool takes no input). The body
 * answers with effection's `Ok`/`Err` as the seed does, with a ToolOutcome (ToolSuccess,
 * ToolError, ToolBreak to switch modes), or with nothing (a success with null). The value it
 * succeeds with types the tool's output, which another agent's call of it returns.
 *
 * @example
 * const weigh = createTool('weigh')
 *   .description('How heavy an item is, in kilograms')
 *   .parameter(z.object({ item: z.string() }))
 *   .execute(function* ({ item }) {
 *     if (item === 'the moon') return Err(new Error('too heavy to weigh'));
 *     return Ok({ item, kg: 1.5 });
 *   });
 */
export function createTool(name: string): ToolBuilder {
  let text = '';
  let outsideEffects = false;
  // `I` is `z.infer` of `schema`, which the builder's signatures name; parsed data is of it.
  const executeFor = <I>(schema: z.ZodType): Execute<I> => {
    const { inputSchema, unwrap } = modelInput(schema);
    const make = (body: (input: I) => Operation<ToolAnswer>): Tool<I> => ({
      name,
      description: text,
      spec: { name, description: text, inputSchema },
      outsideEffects,
      *run(input) {
        const parsed = schema.safeParse(unwrap(input));
        if (!parsed.success) {
          const problems = parsed.error.issues.map(
            (i) =>
              `${[...(unwrap === asIs ? [] : [WRAPPED]), ...i.path].join('.') || '(input)'}: ${i.message}`,
          );
          return ToolError(`invalid input for ${name}: ${problems.join('; ')}`);
        }
        return outcomeOf(yield* body(parsed.data as I));
      },
    });
    // One implementation answers both readings of Execute; only the compiler tells them apart.
    return make as Execute<I>;
  };
  const builder: ToolBuilder = {
    description(description) {
      text = description;
      return builder;
    },
    changesOutside() {
      outsideEffects = true;
      return builder;
    },
    parameter: (schema) => builder.input(schema),
    input: <S extends z.ZodType>(schema: S) => ({ execute: executeFor<z.infer<S>>(schema) }),
    get execute() {
      return executeFor<NoInput>(NO_INPUT);
    },
  };
  return builder;
}

/** The input of a tool declared without one: an empty object. */
const NO_INPUT = z.object({});
type NoInput = z.infer<typeof NO_INPUT>;

/** The field a tool's input that is not an object travels in (see modelInput). */
const WRAPPED = 'value';

const asIs = (input: Json): unknown => input;

/**
 * The JSON schema the model is given for `schema`, and how to read the model's input back. The
 * Messages API takes only an object as a tool's input, while seed 004 writes tools such as
 * `.parameter(z.string())`: an input that is not an object is offered as a one-field object
 * (`{value: …}`) and unwrapped for the tool, so the seed's form works on Claude.
 */
function modelInput(schema: z.ZodType): {
  inputSchema: ToolSpec['inputSchema'];
  unwrap: (input: Json) => unknown;
} {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: 'draft-7' }) as {
    [key: string]: Json;
  };
  if (json['type'] === 'object') return { inputSchema: json as ToolSpec['inputSchema'], unwrap: asIs };
  return {
    inputSchema: {
      type: 'object',
      properties: { [WRAPPED]: json },
      required: [WRAPPED],
      additionalProperties: false,
    },
    // The model's input is wrapped; another agent's call (`Agent.tools.x('a trip')`) is not.
    unwrap: (input) =>
      typeof input === 'object' && input !== null && !Array.isArray(input) ? input[WRAPPED] : input,
  };
}

/**
 * A tool's answer as the runtime records it: effection's `Ok(value)` is a success and `Err(error)`
 * an error result the model reads (seed 004 writes tools that way); a ToolOutcome stays as it is.
 *
 * @example
 * outcomeOf(Ok({ kg: 1.5 })); // { kind: 'success', value: { kg: 1.5 } }
 * outcomeOf(Err(new Error('too heavy to weigh'))); // { kind: 'error', message: 'too heavy to weigh' }
 */
export function outcomeOf<O>(answer: ToolAnswer<O>): ToolOutcome {
  // What a tool answers is recorded in the tree and read by the model as JSON: its output type
  // (an interface, say) is the author's promise that it is plain data.
  if (answer === undefined) return ToolSuccess(null);
  if ('kind' in answer) return answer as ToolOutcome;
  return answer.ok ? ToolSuccess((answer.value ?? null) as Json) : ToolError(answer.error.message);
}

/**
 * What `createTool(name)` returns. Named, because its methods return the builder itself, which a
 * declaration file (the packed `@sweatpants/agent-runtime`) cannot spell as an inferred type.
 */
export interface ToolBuilder {
  description(description: string): ToolBuilder;
  /** marks a tool that changes something outside the tree (see Tool.outsideEffects) */
  changesOutside(): ToolBuilder;
  /** seed 004's name for `input`: the schema the model's arguments are checked against */
  parameter<S extends z.ZodType>(schema: S): ToolBody<z.infer<S>>;
  input<S extends z.ZodType>(schema: S): ToolBody<z.infer<S>>;
  /** the tool's body, when it takes no input (seed 004's `createTool(name).execute(...)`) */
  readonly execute: Execute<NoInput>;
}

/** A tool's input declared: what remains is its body. */
export interface ToolBody<I> {
  readonly execute: Execute<I>;
}
