import { err, ok, type Activity, type ActivityStatus, type Result } from '@sweatpants/domain';
import { call, type Operation } from 'effection';
import type { ChangeMaker } from './activity-changes';
import { ActivityStoreContext, type ActivityStoreError } from './activity-store';
import { classifyActivity, type Verdict } from './classify-rules';

/** What a classification run did. */
export interface ClassifyReport {
  classified: number;
  /** the ids it classified, in every group */
  classifiedIds: string[];
  /** how many went to each status */
  byStatus: Partial<Record<ActivityStatus, number>>;
  /** the ids that now wait for the user's judgement */
  quarantined: string[];
  /** ids asked for that were not pending, left as they were */
  skipped: string[];
}

/** How many pending activities one run reads at most. */
const BATCH = 200;

/**
 * Seed 003's classifyPending: classifies the given activities by rules (no model call) and writes
 * each verdict group in one batch update, every batch logged as `by`'s change when a conversation
 * made it. Ids that are not pending are skipped; unknown ids refuse the run before anything changes.
 */
export function* classifyPending(
  ids: readonly string[],
  by?: ChangeMaker,
): Operation<Result<ClassifyReport, ActivityStoreError>> {
  const store = yield* ActivityStoreContext.expect();
  const found = yield* call(() => store.queryActivities({ ids: [...ids], limit: BATCH }));
  if (!found.ok) return found;
  const known = new Set(found.value.map((a) => a.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    return err({ code: 'unknown_ids', ids: unknown, message: `no activity ${unknown.join(', ')}` });
  const pending = found.value.filter((a) => a.status === 'pending');
  const report = yield* classify(pending, by);
  if (!report.ok) return report;
  return ok({ ...report.value, skipped: found.value.filter((a) => a.status !== 'pending').map((a) => a.id) });
}

/** Seed 003's classifyAllPending: every pending activity of the owner, by the same rules. */
export function* classifyAllPending(by?: ChangeMaker): Operation<Result<ClassifyReport, ActivityStoreError>> {
  const store = yield* ActivityStoreContext.expect();
  const pending = yield* call(() => store.queryActivities({ status: 'pending', limit: BATCH }));
  if (!pending.ok) return pending;
  return yield* classify(pending.value, by);
}

function* classify(
  pending: readonly Activity[],
  by: ChangeMaker | undefined,
): Operation<Result<ClassifyReport, ActivityStoreError>> {
  const store = yield* ActivityStoreContext.expect();
  const people = yield* call(() => store.queryPeople({ limit: BATCH }));
  if (!people.ok) return people;
  const groups = new Map<string, { verdict: Verdict; ids: string[] }>();
  for (const activity of pending) {
    const verdict = classifyActivity(activity, people.value);
    // Same verdict, same batch: the rules' reasoning names the sender, so groups stay honest.
    const key = JSON.stringify(verdict);
    const group = groups.get(key) ?? { verdict, ids: [] };
    group.ids.push(activity.id);
    groups.set(key, group);
  }
  const report: ClassifyReport = {
    classified: 0,
    classifiedIds: [],
    byStatus: {},
    quarantined: [],
    skipped: [],
  };
  for (const { verdict, ids } of groups.values()) {
    const updated = yield* call(() => store.updateActivities(ids, verdict, by));
    if (!updated.ok) return updated;
    report.classified += updated.value.updatedCount;
    report.classifiedIds.push(...updated.value.activityIds);
    report.byStatus[verdict.status] = (report.byStatus[verdict.status] ?? 0) + updated.value.updatedCount;
    if (verdict.status === 'quarantined') report.quarantined.push(...ids);
  }
  return ok(report);
}
