import * as z from 'zod';
import { createTool, ToolBreak, ToolError, ToolSuccess, type Tool } from '@sweatpants/agent-runtime';
import type { Decision } from './decide';
import { CONTINUE_EXTRACT, type Extract } from './observation';
import { currentSession, recordDecision } from './session-io';
import { itemsProcessedOf, pendingItemOf, phaseOf, type Phase, type SessionState } from './session-state';
import { endOfSession } from './session-recap';
import { recordEvent } from './tidying-events';
import { mkItemName, mkSpaceFunction, allOf, orNull } from './tidying-types';

/**
 * Seed 001's transition tools: each ends the turn (ToolBreak) in the mode it names, after
 * recording the decision it stands for, so the session's phase follows the conversation's mode
 * through the same fold as every other turn. A decision the phases cannot hold (sorting before
 * the space has a purpose) comes back to the model as a tool error it can act on.
 */

/** Where the session picks up after a detour: a stuck item's phase, or where it is. */
function resumePhase(state: SessionState): Phase {
  return state.phaseData.phase === 'decision-support' ? state.phaseData.resume.phase : phaseOf(state);
}

function* decideAndBreak(
  decision: Decision,
  extract: Extract,
  text: string,
  next: { mode: string; data: { [key: string]: string } },
) {
  const recorded = yield* recordDecision(decision, extract);
  if (!recorded.ok) return ToolError(recorded.message);
  return ToolBreak(text, next);
}

export const beginSorting: Tool = createTool('begin_sorting')
  .description('Start sorting once you know what the space is for.')
  .input(
    z.object({
      function: z.string().optional().describe('what the space is for, if the user just said'),
      anchors: z.array(z.string()).optional().describe('things that definitely stay'),
    }),
  )
  .execute(function* (input) {
    const extract: Extract = {
      ...CONTINUE_EXTRACT,
      intent: 'start',
      function: orNull(mkSpaceFunction(input.function ?? '')),
      anchors: input.anchors ? allOf(input.anchors, mkItemName) : null,
    };
    return yield* decideAndBreak(
      { action: { tag: 'first-instruction' }, nextPhase: 'sorting' },
      extract,
      '[Continue as: Sorting] Give one tiny first action, then propose dispositions one item at a time.',
      { mode: 'sorting', data: {} },
    );
  });

const itemAndReason = z.object({ item: z.string().trim().min(1), reason: z.string() });

export const needToClarify: Tool = createTool('need_to_clarify')
  .description('The user does not know which item you mean, or what it is: switch to clarifying it.')
  .input(itemAndReason)
  .execute(function* ({ item, reason }) {
    const state = yield* currentSession();
    const extract: Extract = { ...CONTINUE_EXTRACT, intent: 'item', item: orNull(mkItemName(item)) };
    return yield* decideAndBreak(
      { action: { tag: 'ask-what-is-it' }, nextPhase: resumePhase(state) },
      extract,
      `[Continue as: Clarifying] Help them find and recognise "${item}". (${reason})`,
      { mode: 'clarifying', data: { item, reason } },
    );
  });

export const userSeemsStuck: Tool = createTool('user_seems_stuck')
  .description('The user cannot decide about an item: switch to decision support for it.')
  .input(itemAndReason)
  .execute(function* ({ item, reason }) {
    const name = mkItemName(item);
    if (!name.ok) return ToolError(name.error.message);
    return yield* decideAndBreak(
      { action: { tag: 'decision-aid', item: name.value }, nextPhase: 'decision-support' },
      { ...CONTINUE_EXTRACT, intent: 'help', item: name.value },
      `[Continue as: DecisionSupport] Reframe "${item}" through what the space is for. (${reason})`,
      { mode: 'decision-support', data: { item, reason } },
    );
  });

export const timeToWrap: Tool = createTool('time_to_wrap')
  .description('The user is tired or has done enough: switch to winding down.')
  .input(z.object({ reason: z.string() }))
  .execute(function* ({ reason }) {
    const state = yield* currentSession();
    return yield* decideAndBreak(
      { action: { tag: 'energy-check' }, nextPhase: resumePhase(state) },
      CONTINUE_EXTRACT,
      `[Continue as: WindingDown] ${reason}`,
      { mode: 'winding-down', data: { reason } },
    );
  });

/**
 * Back to sorting. After decision support the stuck item has had its turn: the next thing. After
 * clarifying, the item now clear is still to be decided: sorting proposes what to do with it.
 */
export const resumeSorting: Tool = createTool('resume_sorting')
  .description('The item is clear (or decided): go back to sorting.')
  .input(z.object({ note: z.string().optional() }))
  .execute(function* ({ note }) {
    const state = yield* currentSession();
    const clear = state.phaseData.phase === 'decision-support' ? null : pendingItemOf(state);
    return yield* decideAndBreak(
      {
        action: clear ? { tag: 'ask-item-decision', item: clear } : { tag: 'instruct-next' },
        nextPhase: resumePhase(state),
      },
      CONTINUE_EXTRACT,
      clear
        ? `[Continue as: Sorting] "${clear}" is clear now: propose what to do with it.${note ? ` (${note})` : ''}`
        : `[Continue as: Sorting] ${note ?? 'Ask for the next thing.'}`,
      { mode: 'sorting', data: {} },
    );
  });

export const skipItem: Tool = createTool('skip_item')
  .description('Leave this item for later: it goes on the unsure pile, and sorting goes on.')
  .input(z.object({ item: z.string().trim().min(1) }))
  .execute(function* ({ item }) {
    const state = yield* currentSession();
    return yield* decideAndBreak(
      { action: { tag: 'instruct-unsure' }, nextPhase: resumePhase(state) },
      { ...CONTINUE_EXTRACT, intent: 'decided', choice: 'unsure', item: orNull(mkItemName(item)) },
      `[Continue as: Sorting] "${item}" is on the unsure pile. Ask for the next thing.`,
      { mode: 'sorting', data: {} },
    );
  });

/**
 * Ends the session: the summary is decided (the phase becomes `ended`) and the end recorded; the
 * result carries the recap (every non-empty pile, its count and items) for the goodbye.
 */
export const endSession: Tool = createTool('end_session')
  .description(
    'End the session once the user is done; then give a short warm summary that names each pile from the recap.',
  )
  .input(z.object({ summary: z.string().optional() }))
  .execute(function* () {
    const recorded = yield* recordDecision(
      { action: { tag: 'summary' }, nextPhase: 'ended' },
      { ...CONTINUE_EXTRACT, intent: 'stop' },
    );
    if (!recorded.ok) return ToolError(recorded.message);
    yield* recordEvent({ type: 'session-ended', itemsProcessed: itemsProcessedOf(recorded.state) });
    return ToolSuccess(endOfSession(recorded.state));
  });
