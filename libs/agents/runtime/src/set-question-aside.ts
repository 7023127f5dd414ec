import type { ToolUseBlock } from './model';
import type { Aside } from './context';
import { createTool, ToolSuccess, type Tool, type ToolOutcome } from './tool';

/**
 * Words said while a question waits that ask to stop or leave it ("I'm done", "never mind") are a
 * tangent, and a side quest answers them; by default the question is then asked again, which a
 * person who said they are done does not expect. In a side quest's turn the model is offered this
 * tool: calling it sets the waiting question aside, which returns to its asker as declined (the
 * asker's "Skip this"), and the model's reply to the words is the last word.
 *
 * The settling happens where the turn reads the call's outcome (`setAsideBy`), not in the tool's
 * body: a replay returns the recorded outcome without running the body, and must settle the same.
 */
export const SET_QUESTION_ASIDE = 'set_question_aside';

export const setQuestionAside: Tool = createTool(SET_QUESTION_ASIDE)
  .description(
    'The user does not want to answer the question that is waiting (they want to stop, or to leave it): set it aside, so it is not asked again, then reply to them in a sentence.',
  )
  .execute(function* () {
    return ToolSuccess({ setAside: true, note: 'The question is set aside: it is not asked again.' });
  });

/**
 * Settles the side quest's question as declined when `use` was this tool's call and it succeeded.
 *
 * @example
 * const outcome = yield* dispatch(tools, use);
 * setAsideBy(aside, use, outcome);
 */
export function setAsideBy(aside: Aside | null, use: ToolUseBlock, outcome: ToolOutcome): void {
  if (aside && use.name === SET_QUESTION_ASIDE && outcome.kind === 'success')
    aside.settle({ action: 'decline' });
}
