import * as z from 'zod';
import type { ToolUseBlock } from './model';
import type { Aside, RunContext } from './context';
import { createTool, ToolSuccess, type Tool, type ToolOutcome } from './tool';
import type { Operation } from 'effection';
import { stopAsking } from './waiting-questions';

/**
 * Words said while a question waits that ask to stop or leave it ("I'm done", "never mind") are a
 * tangent, and a side quest answers them; by default the question is then asked again, which a
 * person who said they are done does not expect. In a side quest's turn the model is offered this
 * tool: calling it sets the waiting question aside, which returns to its asker as declined (the
 * asker's "Skip this"), and the model's reply to the words is the last word. With `all` (the person
 * wants to stop altogether) the agent asks nothing more this turn: its other questions are declined
 * the same way.
 *
 * The settling happens where the turn reads the call's outcome (`setAsideBy`), not in the tool's
 * body: a replay returns the recorded outcome without running the body, and must settle the same.
 */
export const SET_QUESTION_ASIDE = 'set_question_aside';

const SetAsideInput = z.object({
  all: z
    .boolean()
    .optional()
    .describe('true when the user wants to stop altogether: every question you are waiting on is set aside'),
});

/** What the call recorded: the settling reads it, so a replay settles as the first run did. */
const SetAsideResult = z.object({ setAside: z.literal(true), all: z.boolean() });

export const setQuestionAside: Tool = createTool(SET_QUESTION_ASIDE)
  .description(
    'The user does not want to answer the question that is waiting (they want to stop, or to leave it): set it aside, so it is not asked again, then reply to them in a sentence.',
  )
  .parameter(SetAsideInput)
  .execute(function* ({ all = false }) {
    return ToolSuccess({
      setAside: true,
      all,
      note: all
        ? 'Every question you were waiting on is set aside: none is asked again.'
        : 'The question is set aside: it is not asked again.',
    });
  });

/**
 * Settles the side quest's question as declined when `use` was this tool's call and it succeeded;
 * with `all`, its asker asks nothing more this turn (./waiting-questions' `stopAsking`).
 *
 * @example
 * const outcome = yield* dispatch(tools, use);
 * yield* setAsideBy(run, aside, use, outcome);
 */
export function* setAsideBy(
  run: RunContext,
  aside: Aside | null,
  use: ToolUseBlock,
  outcome: ToolOutcome,
): Operation<void> {
  if (!aside || use.name !== SET_QUESTION_ASIDE || outcome.kind !== 'success') return;
  aside.settle({ action: 'decline' });
  if (SetAsideResult.safeParse(outcome.value).data?.all)
    yield* stopAsking(run, aside.question.askedBy, aside.question.elicitId);
}
