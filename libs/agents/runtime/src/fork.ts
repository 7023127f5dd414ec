import { randomUUID } from 'node:crypto';
import type { Json, TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { Run } from './context';
import { ToolCallError, type CreatedAgent, type ToolCallOf, type ToolSet } from './create-agent';
import { HeadMovedError, ReplayDivergenceError } from './journal';
import type { Tool } from './tool';
import { dispatch } from './tool-dispatch';

/**
 * How an attempt on a branch ended: committed with what it found (`forward`), or abandoned with
 * why (`back`). The attempt's body returns one; `fork` answers it. Only the reason and detail are recorded (a
 * replay answers an abandoned attempt without running it); a committed value is made again by the
 * replayed body, from its recorded calls.
 */
export type Forked<R = unknown> =
  { forwarded: true; value: R } | { forwarded: false; reason: string; detail?: Json };

/** The attempt worked: its nodes stay on the path, and `value` is what the parent gets. */
export const forward = <R>(value: R): Forked<R> => ({ forwarded: true, value });

/**
 * The attempt did not work: HEAD goes back to where it began, `reason` says why, and `detail` keeps
 * what the parent may still need of it (what was searched, how far it was): both are recorded.
 */
export const back = (reason: string, detail?: Json): Forked<never> => ({
  forwarded: false,
  reason,
  ...(detail === undefined ? {} : { detail }),
});

/** A subagent as an attempt sees it: its tools, each call recorded on the attempt's branch. */
export interface Attempt<T extends ToolSet> {
  readonly agent: string;
  readonly tools: { readonly [K in keyof T]: ToolCallOf<T[K]> };
}

/** What the tree holds of an attempt: where it began, and where it ended when it was abandoned. */
export const FORK_EVENT = 'fork';
export const FORWARD_EVENT = 'forward';
export const RETURN_EVENT = 'fork-return';

/**
 * Seed 004's fork/forward/back for a subagent: "try this approach, if it fails, roll back and try
 * another". `fork` starts a branch at the turn's last node (an `event` node `{ type: 'fork',
 * agent, label }` authored by the subagent) and runs `body` on it as the subagent: its tool calls
 * (`attempt.tools.x`) and whatever they write are recorded there, authored `agent:<name>`, and fold
 * into its state like any node on the path.
 *
 * `forward(value)` commits the attempt: a `forward` event ends it and HEAD stays at its tip.
 * `back(reason)` abandons it: HEAD returns to the node the attempt began under, with reflog action
 * `return`, through a `fork-return` event written there in the same move (so a rebuilt runner
 * knows the attempt ended, and how). The state folded from the path is the checkpoint's again,
 * the attempt's nodes stay in the tree as a branch (recoverable from the reflog), and the next
 * attempt is a sibling branch. A body that throws is abandoned the same way, then the error goes
 * on.
 *
 * Replayed after a crash, a committed or unfinished attempt runs again from its record, and an
 * abandoned one is not run at all: its `fork-return` answers for it.
 *
 * @example
 * const dropOff = yield* fork(Donations, 'drop-off first', function* (attempt) {
 *   const places = yield* attempt.tools.findDropOff({ item: 'coat' });
 *   return places.length > 0 ? forward(places) : back('no drop-off place near');
 * });
 * if (!dropOff.forwarded) {
 *   yield* fork(Donations, 'collection', function* (attempt) {
 *     return forward(yield* attempt.tools.findCollection({ item: 'coat' }));
 *   });
 * }
 */
export function* fork<T extends ToolSet, R>(
  agent: CreatedAgent<T>,
  label: string,
  body: (attempt: Attempt<T>) => Operation<Forked<R>>,
): Operation<Forked<R>> {
  const run = yield* Run.expect();
  const { journal } = run;
  const authorId = `agent:${agent.name}`;
  const ours = (n: TreeNode<'event'>) => n.payload['agent'] === agent.name && n.payload['label'] === label;

  const next = journal.peek();
  if (next?.kind === 'event' && next.payload['type'] === RETURN_EVENT) {
    const left = journal.take('event', `the end of the attempt "${label}"`, ours) as TreeNode<'event'>;
    const reason = String(left.payload['reason']);
    if (left.payload['threw'] === true) throw new Error(reason);
    return back(reason, left.payload['detail']);
  }

  const point = journal.path().at(-1) as TreeNode;
  if (!journal.take('event', `the attempt "${label}"`, (n) => n.payload['type'] === FORK_EVENT && ours(n))) {
    yield* journal.append([
      { kind: 'event', payload: { type: FORK_EVENT, agent: agent.name, label }, authorId },
    ]);
  }

  const instance = yield* agent.instance();
  const tools = Object.fromEntries(
    Object.entries(instance.tools).map(([key, tool]) => [
      key,
      (input: unknown = {}) => recordedCall(tool, input),
    ]),
  ) as Attempt<T>['tools'];

  // Back to `point`, with the `fork-return` event that says which attempt ended there and why.
  function* leave(reason: string, threw: boolean, detail?: Json): Operation<void> {
    const payload = {
      type: RETURN_EVENT,
      agent: agent.name,
      label,
      reason,
      branch: journal.head,
      ...(detail === undefined ? {} : { detail }),
    };
    yield* journal.returnTo(point, [
      { kind: 'event', payload: threw ? { ...payload, threw } : payload, authorId },
    ]);
  }

  let ended: Forked<R>;
  try {
    ended = yield* Run.with({ ...run, authorId }, () => body({ agent: agent.name, tools }));
  } catch (error) {
    // The conversation moved, or the code no longer matches its record: nothing more is written.
    if (error instanceof HeadMovedError || error instanceof ReplayDivergenceError) throw error;
    yield* leave(error instanceof Error ? error.message : String(error), true);
    throw error;
  }
  if (!ended.forwarded) yield* leave(ended.reason, false, ended.detail);
  else if (
    !journal.take('event', `the commit of "${label}"`, (n) => n.payload['type'] === FORWARD_EVENT && ours(n))
  )
    yield* journal.append([
      { kind: 'event', payload: { type: FORWARD_EVENT, agent: agent.name, label }, authorId },
    ]);
  return ended;
}

/**
 * A subagent's tool called from an attempt: recorded as a tool_call and its tool_result on the
 * branch (by the dispatcher, so a replay returns the recorded result and never runs it twice).
 * A replay takes the id the call was recorded under.
 */
function* recordedCall(tool: Tool, input: unknown): Operation<unknown> {
  const run = yield* Run.expect();
  const next = run.journal.peek();
  const recorded = next?.kind === 'tool_call' && next.payload['name'] === tool.name;
  const id = recorded ? String(next.payload['toolUseId']) : randomUUID();
  const outcome = yield* dispatch([tool], { type: 'tool_use', id, name: tool.name, input: input as Json });
  if (outcome.kind !== 'success') throw new ToolCallError(tool.name, outcome);
  return outcome.value;
}
