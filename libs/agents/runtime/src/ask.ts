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
export function* ask<T extends ElicitType>(
  question: ElicitInput<T>,
  fallback: ElicitContent<T>,
): Operation<Asked<T>> {
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
