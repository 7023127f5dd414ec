import * as z from 'zod';
import type { Operation } from 'effection';
import {
  createTool,
  Run,
  ToolBreak,
  ToolSuccess,
  type Tool,
  type ToolOutcome,
} from '@sweatpants/agent-runtime';
import { conciergeState } from './concierge-state';
import { recapOf } from './review-recap';
import { FINISH_REVIEW, setAsideResult } from './set-aside';
import { OpenCards } from './side-quest';

/** The synthetic message that opens the interview mode's first turn. */
export const REVIEW_STARTED = '[Quarantine review]';
/** The synthetic message that brings the concierge back to the overview. */
export const REVIEW_FINISHED = '[Review finished]';

/**
 * Starts the quarantine interview (seed 001's transition tool): the turn ends and the next runs in
 * the interview mode on the items named, or on all of them.
 */
export const startReview: Tool = createTool('start_review')
  .description(
    'Start the quarantine interview when the user asks for help with quarantined items: one item (give its id), several, or all of them (no ids).',
  )
  .input(z.object({ activity_ids: z.array(z.string().min(1)).max(200).optional() }))
  .execute(function* ({ activity_ids }) {
    const ids = activity_ids ?? [];
    const what = ids.length > 0 ? `quarantined items ${ids.join(', ')}` : 'all quarantined items';
    return ToolBreak(`${REVIEW_STARTED} Review ${what}.`, { mode: 'interview', data: { activityIds: ids } });
  });

/**
 * Ends the interview: back to the overview. The synthetic message carries the model's line and,
 * below it, the recap of what the review changed, built from the state's fold rather than from
 * the model's memory, so the overview's reply can tell the user every change.
 *
 * Called in a side quest ("I'm done" typed while a card waits), it sets the card aside instead:
 * the side quest's reply is said, the card is not asked again, and the card's own tool ends the
 * review (see ./set-aside), since a side quest runs inside the card's question and cannot
 * leave the interview before that question returns.
 */
export const finishReview: Tool = createTool(FINISH_REVIEW)
  .description('End the quarantine interview when every group is decided or the user wants to stop.')
  .input(z.object({ summary: z.string().min(1).describe('what was decided, in a sentence') }))
  .execute(function* ({ summary }) {
    const open = yield* OpenCards.expect();
    if (open) return ToolSuccess(setAsideResult(open.elicitId, summary));
    return yield* reviewEnd(summary);
  });

/** Back to the overview, with the recap of what the review changed. */
export function* reviewEnd(summary: string): Operation<ToolOutcome> {
  const run = yield* Run.expect();
  const recap = recapOf(run.journal.fold(conciergeState).review);
  return ToolBreak(`${REVIEW_FINISHED} ${summary}\n${recap}`, {
    mode: 'assistant',
    data: { lastReview: summary, recap },
  });
}

/** The recap a finish_review message carries (everything below its first line), or ''. */
export function recapIn(message: string): string {
  const at = message.indexOf('\n');
  return message.startsWith(REVIEW_FINISHED) && at >= 0 ? message.slice(at + 1).trim() : '';
}
