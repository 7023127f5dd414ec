import * as z from 'zod';
import { createTool, ToolBreak, type Tool } from '../../runtime';

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

/** Ends the interview: back to the overview with a line of what was decided. */
export const finishReview: Tool = createTool('finish_review')
  .description('End the quarantine interview when every group is decided or the user wants to stop.')
  .input(z.object({ summary: z.string().min(1).describe('what was decided, in a sentence') }))
  .execute(function* ({ summary }) {
    return ToolBreak(`${REVIEW_FINISHED} ${summary}`, { mode: 'assistant', data: { lastReview: summary } });
  });
