import { ActivityFilterSchema, PeopleFilterSchema, type TreeNode } from '@sweatpants/domain';
import { call } from 'effection';
import * as z from 'zod';
import { createTool, Ok, Run, ToolError, ToolSuccess, type Tool } from '@sweatpants/agent-runtime';
import type { ChangeMaker } from './activity-changes';
import { ActivityStoreContext, type ActivityStoreError } from './activity-store';
import { classifyAllPending, classifyPending } from './classify-pending';
import { clusterActivities } from './option-framing';
import { optionApplied, recordActivitiesClassified, recordActivitiesUpdated } from './review-events';
import { OpenCards } from './side-quest';
import { ActivityIdsSchema, toActivityUpdates, UpdatesInputSchema } from './tool-inputs';

/**
 * Seed 003's tools over the owner's activities and people. Every tool takes arrays for batches,
 * validates its input with zod, and answers ToolSuccess or a ToolError the model can read: a
 * store failure or an unknown id changes nothing.
 */

export const queryActivities: Tool = createTool('query_activities')
  .description(
    "Read the user's activities (emails and notices), newest first. Filters: status (pending, surfaced, quarantined, processed, archived), ids, type (the classification's activity type), text (part of sender, subject or summary), since, limit (default 20). Quarantined results come grouped into clusters of similar items.",
  )
  .input(ActivityFilterSchema)
  .execute(function* (filter) {
    const store = yield* ActivityStoreContext.expect();
    const found = yield* call(() => store.queryActivities(filter));
    if (!found.ok) return ToolError(failure('query_activities', found.error));
    const activities = found.value;
    const quarantined = activities.filter((a) => a.status === 'quarantined');
    const clusters = clusterActivities(quarantined).map((c) => ({
      kind: c.kind,
      activity_ids: c.activities.map((a) => a.id),
    }));
    return Ok({ activities, count: activities.length, clusters });
  });

export const updateActivities: Tool = createTool('update_activities')
  .changesOutside()
  .description(
    'Apply one change to a batch of activities at once: a new status and/or a partial classification (activity_type, urgency low|normal|high, autonomy_tier 1-3, confidence 0-1, personas, reasoning, suggested_actions, option_framing). All or nothing: an unknown id changes none of them.',
  )
  .input(z.object({ activity_ids: ActivityIdsSchema, updates: UpdatesInputSchema }))
  .execute(function* ({ activity_ids, updates }) {
    const store = yield* ActivityStoreContext.expect();
    const changes = toActivityUpdates(updates);
    if (changes.status === undefined && changes.classification === undefined)
      return ToolError('update_activities: the updates are empty; give a status, a classification, or both');
    // Beside an open card (a side quest), words apply picks to that card's items only.
    const open = yield* OpenCards.expect();
    const foreign = open?.offer ? activity_ids.filter((id) => !open.offer?.activity_ids.includes(id)) : [];
    if (foreign.length > 0)
      return ToolError(
        `update_activities: ${foreign.join(', ')} ${foreign.length === 1 ? 'is' : 'are'} not on the open card "${open?.message ?? ''}"; nothing was changed`,
      );
    const run = yield* Run.expect();
    const path = run.journal.path();
    const by = changeMadeBy(run.conversationId, path, 'update_activities');
    const updated = yield* call(() => store.updateActivities(activity_ids, changes, by));
    if (!updated.ok) return ToolError(failure('update_activities', updated.error));
    // The review's fold reads the decision from this event: what changed, and by which option.
    const { activityIds } = updated.value;
    const option = optionApplied(path, activityIds, changes);
    yield* recordActivitiesUpdated({ activityIds, updates: changes, option, change: by?.changeId ?? null });
    return ToolSuccess({
      updated_count: updated.value.updatedCount,
      activity_ids: updated.value.activityIds,
    });
  });

export const queryPeople: Tool = createTool('query_people')
  .description(
    'Look up the people the user knows: email matches exactly, search matches part of an email or a name.',
  )
  .input(PeopleFilterSchema)
  .execute(function* (filter) {
    const store = yield* ActivityStoreContext.expect();
    const found = yield* call(() => store.queryPeople(filter));
    if (!found.ok) return ToolError(failure('query_people', found.error));
    return ToolSuccess({ people: found.value, count: found.value.length });
  });

export const classifyPendingTool: Tool = createTool('classify_pending')
  .changesOutside()
  .description(
    'Sort pending activities by the fixed rules (no guessing): people the user knows are surfaced, mailing lists archived, receipts noted, anything unclear quarantined. Without activity_ids, every pending activity.',
  )
  .input(z.object({ activity_ids: ActivityIdsSchema.optional() }))
  .execute(function* ({ activity_ids }) {
    const run = yield* Run.expect();
    const by = changeMadeBy(run.conversationId, run.journal.path(), 'classify_pending');
    const report = activity_ids ? yield* classifyPending(activity_ids, by) : yield* classifyAllPending(by);
    if (!report.ok) return ToolError(failure('classify_pending', report.error));
    const { classified, classifiedIds, byStatus, quarantined, skipped } = report.value;
    // Sorted by this call, the activities go back to waiting when a rewind leaves it. Recorded
    // even when this run sorted none: a turn replayed after a crash finds them sorted already, and
    // the change its first run logged must still hold.
    if (by) yield* recordActivitiesClassified({ activityIds: classifiedIds, change: by.changeId });
    return ToolSuccess({ classified, by_status: byStatus, quarantined, skipped });
  });

/**
 * Who makes a change to activities: this call, by its node (stored before the call is made), so
 * the change follows the conversation's HEAD. None when the call is not on the path.
 */
function changeMadeBy(
  conversationId: string,
  path: readonly TreeNode[],
  tool: string,
): ChangeMaker | undefined {
  const callNode = path.findLast((n) => n.kind === 'tool_call' && n.payload['name'] === tool);
  return callNode ? { conversationId, changeId: callNode.id } : undefined;
}

/** The text a model reads for a store failure; it says that nothing changed. */
export function failure(tool: string, error: ActivityStoreError): string {
  switch (error.code) {
    case 'unknown_ids':
      return `${tool}: unknown activity ids ${error.ids.join(', ')}; nothing was changed`;
    case 'unavailable':
      return `${tool}: the activity store is unavailable (${error.message}); nothing was changed`;
  }
}
