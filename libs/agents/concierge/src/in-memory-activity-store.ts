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
  ): Promise<Result<ActivityUpdateResult, ActivityStoreError>> {
    if (this.failure) return err(this.failure);
    const unique = [...new Set(ids)];
    const unknown = unique.filter((id) => !this.activities.has(id));
    if (unknown.length > 0) return err(unknownIds(unknown));
    for (const id of unique) {
      const activity = this.activities.get(id);
      if (!activity) continue;
      this.activities.set(id, {
        ...activity,
        status: updates.status ?? activity.status,
        classification: { ...activity.classification, ...updates.classification },
      });
    }
    this.batches.push({ ids: unique, updates: structuredClone(updates) });
    return ok({ updatedCount: unique.length, activityIds: unique });
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
