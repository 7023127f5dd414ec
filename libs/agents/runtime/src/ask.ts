import type { ElicitContent, ElicitResponse, ElicitType } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { Questions } from './context';
import { HeadMovedError, ReplayDivergenceError } from './journal';
import { elicit } from './elicit';
import { log, type ElicitInput } from './primitives';

/** What `ask` hands a tool: always a content it can act on, and whether that was the fallback. */
export interface Asked<T extends ElicitType> {
  /** the accepted content, or the question's fallback */
  content: ElicitContent<T>;
  /** true when no usable answer came: declined, dismissed, timed out, failed */
  fallback: boolean;
  /** the answer as given; absent when asking failed */
  response?: ElicitResponse<T>;
}

/** What `ask` without a fallback hands a tool when no usable answer came. */
export interface Unanswered<T extends ElicitType> {
  content: undefined;
  fallback: true;
  /** the answer as given; absent when asking failed */
  response?: ElicitResponse<T>;
}

/**
 * How a tool asks the user (seed 002's QuestionHandler): the question goes out as an elicit that
 * waits for its answer (or until the deadline the Questions context sets, if any), and anything but
 * an accepted answer (a deadline passed, a dismissal, a failure of the handler) becomes the
 * question's fallback answer, so a tool always gets an answer it can act on.
 *
 * @example
 * const asked = yield* ask(
 *   { type: 'confirm', message: 'Done for today?', payload: { default: false } },
 *   { value: false },
 * );
 * return ToolSuccess({ done: asked.content.value, fallback: asked.fallback });
 */
export function ask<Id extends string>(
  question: ChooseQuestion<Id>,
  fallback?: { choiceId: NoInfer<Id> },
): Operation<Asked<'choose'> & { content: { choiceId: Id } }>;
export function ask<T extends ElicitType>(
  question: ElicitInput<T>,
  fallback: ElicitContent<T>,
): Operation<Asked<T>>;
/**
 * A question whose fallback the tool decides by itself (a form of several kinds of question): no
 * content when no usable answer came.
 */
export function ask<T extends ElicitType>(question: ElicitInput<T>): Operation<Asked<T> | Unanswered<T>>;
export function ask(
  question: ElicitInput | ChooseQuestion<string>,
  fallback?: ElicitContent<ElicitType>,
): Operation<Asked<ElicitType> | Unanswered<ElicitType>> {
  if (!('ids' in question)) return asked(question, fallback);
  // A choice's answer is one of its options: anything else takes the fallback, the first by default.
  const { ids, ...choosing } = question;
  const first = { choiceId: ids[0] ?? '' };
  return (function* () {
    const answer = yield* asked(choosing, (fallback as { choiceId: string } | undefined) ?? first);
    const { choiceId } = answer.content as { choiceId: string };
    return ids.includes(choiceId) ? answer : { ...answer, content: fallback ?? first, fallback: true };
  })();
}

/**
 * A `choose` question whose options' ids type its answer: `ask(choose(...))` answers one of them.
 *
 * @example
 * const picked = yield* ask(choose('Where does it go?', [
 *   { id: 'keep', label: 'Keep it' },
 *   { id: 'donate', label: 'Give it away' },
 * ]));
 * picked.content.choiceId; // 'keep' | 'donate'
 */
export function choose<const Id extends string>(
  message: string,
  options: readonly { id: Id; label: string; description?: string }[],
): ChooseQuestion<Id> {
  return {
    type: 'choose',
    message,
    payload: { options: options.map((o) => ({ ...o })) },
    ids: options.map((o) => o.id),
  };
}

/** A `choose` question made by `choose`, which knows its options' ids. */
export interface ChooseQuestion<Id extends string> extends ElicitInput<'choose'> {
  readonly ids: readonly Id[];
}

/** `ask` of any question: the elicit, and its fallback for anything but an accepted answer. */
function* asked<T extends ElicitType, F>(
  question: ElicitInput<T>,
  fallback: F,
): Operation<
  (Asked<T> & { fallback: false }) | { content: F; fallback: true; response?: ElicitResponse<T> }
> {
  const { timeoutMs } = yield* Questions.expect();
  try {
    const response = (yield* elicit({
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...question,
    })) as ElicitResponse<T>;
    if (response.action === 'accept') return { content: response.content, fallback: false, response };
    return { content: fallback, fallback: true, response };
  } catch (error) {
    if (isHalt(error)) throw error;
    yield* log('warn', 'a question failed; taking its fallback answer', {
      message: error instanceof Error ? error.message : String(error),
    });
    return { content: fallback, fallback: true };
  }
}

/** The errors that stop a turn rather than a question: a stale runner, a diverging replay. */
function isHalt(error: unknown): boolean {
  return error instanceof HeadMovedError || error instanceof ReplayDivergenceError;
}
