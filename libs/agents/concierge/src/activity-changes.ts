import { isDeepStrictEqual } from 'node:util';
import type { Activity } from '@sweatpants/domain';

/**
 * A conversation's changes to activities follow its HEAD. An activity lives outside the tree, so a
 * rewind past the pick that archived it would leave it archived while the review, a fold of the
 * path, says it is still to decide; a recover would show a decision the store no longer holds.
 * Each change a conversation makes is logged with the activity as it was before and after, under
 * the id of the call that made it; a runner opened at HEAD hands the store the changes that hold
 * there (the concierge state's `changes`), and the store undoes the rest and redoes those.
 */

/** Who makes a change: the conversation, and the id of the call that made it (its tool_call node). */
export interface ChangeMaker {
  conversationId: string;
  changeId: string;
}

/** What of an activity a change sets, and what an undo puts back. */
export type ActivityValues = Pick<Activity, 'status' | 'classification'>;

/** One change to one activity, as the store logs it. */
export interface ActivityChange extends ChangeMaker {
  /** the order changes were made in, across every conversation */
  seq: number;
  activityId: string;
  before: ActivityValues;
  after: ActivityValues;
  /** undone by a rewind (and not redone since) */
  undone: boolean;
}

/** What following HEAD does: the activities to set, and the changes whose `undone` flips. */
export interface FollowPlan {
  writes: { activityId: string; values: ActivityValues }[];
  undone: ActivityChange[];
  redone: ActivityChange[];
}

/**
 * The writes that bring `conversationId`'s changes in line with `holding` (the ids of its changes
 * on HEAD's path), from each activity's log (`changes`, every conversation's, oldest first) and its
 * values now. Per activity: its newest changes not holding are undone, newest first; then its
 * undone changes that hold are redone, oldest first. A change is undone or redone only while the
 * activity still shows what it left, and only above every change still in force: what another
 * conversation, or anything else, changed since is never overwritten.
 */
export function followHeadPlan(
  conversationId: string,
  holding: ReadonlySet<string>,
  changes: readonly ActivityChange[],
  current: ReadonlyMap<string, ActivityValues>,
): FollowPlan {
  const plan: FollowPlan = { writes: [], undone: [], redone: [] };
  const byActivity = new Map<string, ActivityChange[]>();
  for (const change of [...changes].sort((a, b) => a.seq - b.seq))
    byActivity.set(change.activityId, [...(byActivity.get(change.activityId) ?? []), change]);
  for (const [activityId, log] of byActivity) {
    const now = current.get(activityId);
    if (!now) continue;
    const undone = new Set(log.filter((c) => c.undone));
    let values = now;
    const ours = (c: ActivityChange) => c.conversationId === conversationId;
    const inForce = () => log.filter((c) => !undone.has(c));
    for (let top = inForce().at(-1); top && ours(top) && !holding.has(top.changeId); top = inForce().at(-1)) {
      if (!sameValues(values, top.after)) break;
      values = top.before;
      undone.add(top);
      plan.undone.push(top);
    }
    const above = inForce().at(-1)?.seq ?? -Infinity;
    for (const change of log.filter((c) => c.seq > above && undone.has(c) && ours(c))) {
      // A change of another branch left undone sits beside the ones that hold: skipped, not a stop.
      if (!holding.has(change.changeId) || !sameValues(values, change.before)) continue;
      values = change.after;
      undone.delete(change);
      plan.redone.push(change);
    }
    if (!sameValues(values, now)) plan.writes.push({ activityId, values });
  }
  return plan;
}

function sameValues(a: ActivityValues, b: ActivityValues): boolean {
  return a.status === b.status && isDeepStrictEqual(a.classification, b.classification);
}
