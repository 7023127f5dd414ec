import type {
  Activity,
  ActivityFilter,
  ActivityUpdateResult,
  ActivityUpdates,
  PeopleFilter,
  Person,
  Result,
} from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import type { ChangeMaker } from './activity-changes';

/** Why the store could not do what was asked. */
export type ActivityStoreError =
  /** some ids name no activity of this owner; nothing was changed */
  | { code: 'unknown_ids'; ids: string[]; message: string }
  /** the store could not be reached or failed */
  | { code: 'unavailable'; message: string };

/**
 * The concierge's activities and people, scoped to one owner: every read and write sees only that
 * owner's rows. The api adapts it to Postgres; tests use the in-memory adapter.
 */
export interface ActivityStore {
  /** the owner's activities that match every field of the filter, newest first */
  queryActivities(filter: ActivityFilter): Promise<Result<Activity[], ActivityStoreError>>;
  /**
   * Applies one change to every listed activity, all or nothing: an id the owner does not have
   * refuses the whole batch with `unknown_ids`. Made `by` a conversation's call, the change is
   * logged (each activity before and after) so it can follow that conversation's HEAD; the same
   * call made again (a turn replayed after a crash) logs it once.
   */
  updateActivities(
    ids: readonly string[],
    updates: ActivityUpdates,
    by?: ChangeMaker,
  ): Promise<Result<ActivityUpdateResult, ActivityStoreError>>;
  /**
   * Brings the activities `conversationId` changed in line with its HEAD, where the changes
   * `holding` hold (`followHeadPlan`): its others are undone, and those undone before are redone.
   * All in one transaction; how many changes were undone and redone.
   */
  followHead(
    conversationId: string,
    holding: readonly string[],
  ): Promise<Result<{ undone: number; redone: number }, ActivityStoreError>>;
  /** the owner's people: `email` exactly (ignoring case), `search` a part of email or name */
  queryPeople(filter: PeopleFilter): Promise<Result<Person[], ActivityStoreError>>;
}

/**
 * The store the concierge's tools read, set per conversation by the Runner's `provide` option:
 * `provide: () => ActivityStoreContext.set(stores.forOwner(ownerId))`.
 */
export const ActivityStoreContext = createContext<ActivityStore>('sweatpants.concierge.activity-store');

/** The Runner's `provide` option for a conversation whose tools use `store`. */
export function provideActivityStore(store: ActivityStore): () => Operation<void> {
  return function* () {
    yield* ActivityStoreContext.set(store);
  };
}

/** Every owner's stores: what the api holds, handing each conversation its owner's store. */
export interface ActivityStores {
  /** the store that sees only `ownerId`'s activities and people */
  forOwner(ownerId: string): ActivityStore;
  /**
   * Gives a new user the demo activities and people (`demoActivities`, `demoPeople`). Idempotent:
   * rows the owner already has are left as they are. Returns how many rows were added.
   */
  seedDemo(ownerId: string): Promise<{ activities: number; people: number }>;
}
