import {
  DEFAULT_QUERY_LIMIT,
  err,
  ok,
  type Activity,
  type ActivityFilter,
  type ActivityUpdateResult,
  type ActivityUpdates,
  type PeopleFilter,
  type Person,
  type Result,
} from '@sweatpants/domain';
import {
  followHeadPlan,
  type ActivityChange,
  type ActivityValues,
  type ChangeMaker,
} from './activity-changes';
import type { ActivityStore, ActivityStoreError } from './activity-store';

/**
 * One owner's activities and people in memory, with the Postgres adapter's semantics (filters,
 * newest first, all-or-nothing batches). For tests and for trying the agent without a database.
 */
export class InMemoryActivityStore implements ActivityStore {
  private readonly activities = new Map<string, Activity>();
  private readonly people: Person[];
  /** every batch update that was applied, in order (what a test counts) */
  readonly batches: { ids: string[]; updates: ActivityUpdates }[] = [];
  /** the changes conversations made, oldest first (see ./activity-changes) */
  private readonly changes: ActivityChange[] = [];
  /** when set, every call answers this error instead (a store that is down) */
  failure: ActivityStoreError | undefined;

  constructor(activities: readonly Activity[] = [], people: readonly Person[] = []) {
    for (const activity of activities) this.activities.set(activity.id, structuredClone(activity));
    this.people = people.map((p) => ({ ...p }));
  }

  /** an activity as stored now */
  get(id: string): Activity | undefined {
    const activity = this.activities.get(id);
    return activity ? structuredClone(activity) : undefined;
  }

  async queryActivities(filter: ActivityFilter): Promise<Result<Activity[], ActivityStoreError>> {
    if (this.failure) return err(this.failure);
    const text = filter.text?.toLowerCase();
    const since = filter.since ? Date.parse(filter.since) : undefined;
    const found = [...this.activities.values()]
      .filter(
        (a) =>
          (!filter.status || a.status === filter.status) &&
          (!filter.ids || filter.ids.includes(a.id)) &&
          (!filter.type || a.classification.activityType === filter.type) &&
          (since === undefined || Date.parse(a.receivedAt) > since) &&
          (!text ||
            [a.sender, a.senderName, a.subject, a.summary].some((f) => f.toLowerCase().includes(text))),
      )
      .sort((a, b) => Date.parse(b.receivedAt) - Date.parse(a.receivedAt) || a.id.localeCompare(b.id))
      .slice(0, filter.limit ?? DEFAULT_QUERY_LIMIT);
    return ok(found.map((a) => structuredClone(a)));
  }

  async updateActivities(
    ids: readonly string[],
    updates: ActivityUpdates,
    by?: ChangeMaker,
  ): Promise<Result<ActivityUpdateResult, ActivityStoreError>> {
    if (this.failure) return err(this.failure);
    const unique = [...new Set(ids)];
    const unknown = unique.filter((id) => !this.activities.has(id));
    if (unknown.length > 0) return err(unknownIds(unknown));
    for (const id of unique) {
      const activity = this.activities.get(id);
      if (!activity) continue;
      const after = {
        ...activity,
        status: updates.status ?? activity.status,
        classification: { ...activity.classification, ...updates.classification },
      };
      this.activities.set(id, after);
      if (by) this.logChange(by, activity, after);
    }
    this.batches.push({ ids: unique, updates: structuredClone(updates) });
    return ok({ updatedCount: unique.length, activityIds: unique });
  }

  async followHead(
    conversationId: string,
    holding: readonly string[],
  ): Promise<Result<{ undone: number; redone: number }, ActivityStoreError>> {
    if (this.failure) return err(this.failure);
    const touched = new Set(
      this.changes.filter((c) => c.conversationId === conversationId).map((c) => c.activityId),
    );
    const current = new Map([...touched].flatMap((id) => this.get(id) ?? []).map((a) => [a.id, a] as const));
    const plan = followHeadPlan(
      conversationId,
      new Set(holding),
      this.changes.filter((c) => touched.has(c.activityId)),
      current,
    );
    for (const { activityId, values } of plan.writes) {
      const activity = this.activities.get(activityId);
      if (activity) this.activities.set(activityId, { ...activity, ...structuredClone(values) });
    }
    for (const change of plan.undone) change.undone = true;
    for (const change of plan.redone) change.undone = false;
    return ok({ undone: plan.undone.length, redone: plan.redone.length });
  }

  /** As the Postgres adapter logs it: a call made again keeps its first `before` and is in force. */
  private logChange(by: ChangeMaker, before: Activity, after: Activity): void {
    const values = (a: Activity): ActivityValues =>
      structuredClone({ status: a.status, classification: a.classification });
    const again = this.changes.find(
      (c) =>
        c.conversationId === by.conversationId && c.changeId === by.changeId && c.activityId === after.id,
    );
    if (again) Object.assign(again, { after: values(after), undone: false });
    else
      this.changes.push({
        ...by,
        seq: this.changes.length + 1,
        activityId: after.id,
        before: values(before),
        after: values(after),
        undone: false,
      });
  }

  async queryPeople(filter: PeopleFilter): Promise<Result<Person[], ActivityStoreError>> {
    if (this.failure) return err(this.failure);
    const email = filter.email?.toLowerCase();
    const search = filter.search?.toLowerCase();
    const found = this.people
      .filter(
        (p) =>
          (!email || p.email.toLowerCase() === email) &&
          (!search || p.email.toLowerCase().includes(search) || p.name.toLowerCase().includes(search)),
      )
      .sort((a, b) => a.email.localeCompare(b.email))
      .slice(0, filter.limit ?? DEFAULT_QUERY_LIMIT);
    return ok(found.map((p) => ({ ...p })));
  }
}

/** The error for a batch that names activities the owner does not have. */
export function unknownIds(ids: readonly string[]): ActivityStoreError {
  return { code: 'unknown_ids', ids: [...ids], message: `no activity ${ids.join(', ')}` };
}
