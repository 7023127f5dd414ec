import type { Json, Photo, TreeNode } from '@sweatpants/domain';
import type { Api, Operation } from 'effection';
import { createApi } from 'effection/experimental';
import { Run } from './context';
import { HeadMovedError } from './journal';
import type { ToolUseBlock } from './model';
import { log } from './primitives';
import { ToolError, type Tool, type ToolOutcome } from './tool';

/**
 * Running a tool the model asked for (seed 002): the dispatcher records the call and its result
 * in the journal, runs the tool through the ToolCalls middleware, and turns an outcome into the
 * text the model reads. Declaring a tool is ./tool's.
 */

/**
 * What a tool_result node records. The photos of a success are the payload's own `photos`, where
 * the store finds every node's photos (so a blob a result names is kept, and only its owner reads
 * it), not inside the outcome.
 */
export interface ToolResultPayload {
  toolUseId: string;
  name: string;
  outcome: ToolOutcome;
  photos?: Photo[];
  [key: string]: Json | ToolOutcome | Photo[] | undefined;
}

/** The tool_result payload of an outcome: its photos beside it. */
function resultPayload(use: ToolUseBlock, outcome: ToolOutcome): ToolResultPayload {
  if (outcome.kind !== 'success' || !outcome.photos?.length)
    return { toolUseId: use.id, name: use.name, outcome };
  const { photos, ...kept } = outcome;
  return { toolUseId: use.id, name: use.name, outcome: kept, photos };
}

/** A recorded tool_result's outcome, its photos with it again. */
export function recordedOutcome(payload: ToolResultPayload): ToolOutcome {
  const { outcome, photos } = payload;
  return outcome.kind === 'success' && photos?.length ? { ...outcome, photos } : outcome;
}

/**
 * The dispatcher: finds the tool by name and runs it, recording a tool_call before and a
 * tool_result after. An unknown tool, an input the model garbled and a tool that throws all come
 * back as error results the model can read, never as a crash of the turn. A result already in the
 * journal is returned as recorded: a tool never runs twice for one call.
 *
 * @example
 * const uses = sampled.value.reply.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
 * for (const use of uses) {
 *   const outcome = yield* dispatch(tools, use);
 *   if (outcome.kind === 'break') return { kind: 'break', next: outcome.next };
 * }
 */
export function* dispatch(tools: readonly Tool[], use: ToolUseBlock): Operation<ToolOutcome> {
  const run = yield* Run.expect();
  const matches = (n: TreeNode<'tool_call'> | TreeNode<'tool_result'>) => n.payload['toolUseId'] === use.id;
  if (!run.journal.take('tool_call', `the call of ${use.name}`, matches)) {
    yield* run.journal.append([
      {
        kind: 'tool_call',
        payload: { toolUseId: use.id, name: use.name, input: use.input },
        authorId: run.authorId,
      },
    ]);
  } else {
    const done = run.journal.skipTo('tool_result', matches);
    if (done) return recordedOutcome(done.payload as unknown as ToolResultPayload);
  }
  const tool = tools.find((t) => t.name === use.name);
  if (tool?.outsideEffects) yield* run.journal.durable();
  const outcome = tool
    ? yield* execute(tool, use)
    : ToolError(`unknown tool "${use.name}"; the tools are: ${tools.map((t) => t.name).join(', ')}`);
  yield* run.journal.append([
    {
      kind: 'tool_result',
      payload: resultPayload(use, outcome) as unknown as { [key: string]: Json },
      authorId: run.authorId,
    },
  ]);
  return outcome;
}

/** What middleware around tool execution sees: the tool, and the model's input for it. */
export interface ToolCallsApi {
  execute(tool: Tool, input: Json): Operation<ToolOutcome>;
}

/**
 * Tool execution as an effection Api, so middleware surrounds it as it surrounds the primitives
 * (seed 004): `ToolCalls.around({ *execute([tool, input], next) {...} }, { at: 'max' | 'min' })`
 * in a scope applies to every tool run there and below: to time, audit, refuse or substitute a
 * call. It runs after the journal's check, so a call replayed from the tree does not pass again.
 *
 * @example
 * yield* ToolCalls.around({
 *   *execute([tool, input], next) {
 *     if (tool.name === 'delete_everything') return ToolError('not in a demo');
 *     return yield* next(tool, input);
 *   },
 * });
 */
export const ToolCalls: Api<ToolCallsApi> = createApi<ToolCallsApi>('sweatpants.tools', {
  *execute(tool, input) {
    return yield* tool.run(input);
  },
});

function* execute(tool: Tool, use: ToolUseBlock): Operation<ToolOutcome> {
  if (isMalformed(use.input))
    return ToolError(`the input for ${use.name} was not valid JSON: ${use.input.__malformed}`);
  try {
    return yield* ToolCalls.operations.execute(tool, use.input);
  } catch (error) {
    // The conversation moved under the runner: the turn stops, it is not the tool's failure.
    if (error instanceof HeadMovedError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    yield* log('error', `tool ${use.name} failed`, { message });
    return ToolError(`${use.name} failed: ${message}`);
  }
}

function isMalformed(input: Json): input is { __malformed: string } {
  return (
    typeof input === 'object' &&
    input !== null &&
    !Array.isArray(input) &&
    typeof input['__malformed'] === 'string'
  );
}

/**
 * The text the model reads for an outcome: a success's value (JSON unless it is a string), an
 * error's message, a break's text.
 *
 * @example
 * const isError = outcome.kind === 'error';
 * push('user', [{ type: 'tool_result', toolUseId, content: resultText(outcome), isError }]);
 */
export function resultText(outcome: ToolOutcome): string {
  switch (outcome.kind) {
    case 'success':
      return typeof outcome.value === 'string' ? outcome.value : JSON.stringify(outcome.value);
    case 'error':
      return outcome.message;
    case 'break':
      return outcome.text;
  }
}
