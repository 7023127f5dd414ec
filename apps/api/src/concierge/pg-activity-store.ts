import {
  ActivitySchema,
  DEFAULT_QUERY_LIMIT,
  err,
  ok,
  PersonSchema,
  type Activity,
  type ActivityFilter,
  type ActivityUpdateResult,
  type ActivityUpdates,
  type ExportedConcierge,
  type Json,
  type PeopleFilter,
  type Person,
  type Result,
} from '@sweatpants/domain';
import {
  demoActivities,
  demoPeople,
  followHeadPlan,
  unknownIds,
  type ActivityChange,
  type ActivityStore,
  type ActivityStoreError,
  type ActivityStores,
  type ActivityValues,
  type ChangeMaker,
} from '@sweatpants/agent-concierge';
import type { SqlClient } from '@sweatpants/tree-store';

const ACTIVITY_COLUMNS = `id, source, sender, sender_name, subject, summary, received_at, status, classification`;

// Every filter is a parameter that may be null, so the statement is one fixed text.
const QUERY_ACTIVITIES = `
  SELECT ${ACTIVITY_COLUMNS} FROM concierge_activities
  WHERE owner_id = $1
    AND ($2::text IS NULL OR status = $2)
    AND ($3::text[] IS NULL OR id = ANY ($3::text[]))
    AND ($4::text IS NULL OR classification ->> 'activityType' = $4)
    AND ($5::text IS NULL OR sender ILIKE $5 ESCAPE '\\' OR sender_name ILIKE $5 ESCAPE '\\'
         OR subject ILIKE $5 ESCAPE '\\' OR summary ILIKE $5 ESCAPE '\\')
    AND ($6::timestamptz IS NULL OR received_at > $6)
  ORDER BY received_at DESC, id
  LIMIT $7`;

const LOCK_ACTIVITIES = `
  SELECT id, status, classification FROM concierge_activities
  WHERE owner_id = $1 AND id = ANY ($2::text[]) ORDER BY id FOR UPDATE`;

// `||` merges the partial classification over the stored one: the fields given replace.
const UPDATE_ACTIVITIES = `
  UPDATE concierge_activities
  SET status = COALESCE($3, status), classification = classification || $4::jsonb,
      updated_at = clock_timestamp()
  WHERE owner_id = $1 AND id = ANY ($2::text[])
  RETURNING id, status, classification`;

// A call made again (its turn replayed) keeps the row's first `before` and is in force again.
const LOG_CHANGES = `
  INSERT INTO concierge_activity_changes (owner_id, activity_id, conversation_id, change_id,
    before_status, before_classification, after_status, after_classification)
  SELECT $1, r.id, $2, $3, r.before_status, r.before_classification, r.after_status, r.after_classification
  FROM jsonb_to_recordset($4::jsonb) AS r (id text, before_status text, before_classification jsonb,
       after_status text, after_classification jsonb)
  ON CONFLICT (conversation_id, change_id, activity_id) DO UPDATE
  SET after_status = EXCLUDED.after_status, after_classification = EXCLUDED.after_classification,
      undone = false`;

const TOUCHED_BY = `
  SELECT DISTINCT activity_id FROM concierge_activity_changes WHERE owner_id = $1 AND conversation_id = $2`;

const CHANGE_COLUMNS = `seq, conversation_id, change_id, activity_id, before_status, before_classification,
  after_status, after_classification, undone`;

const CHANGES_OF = `
  SELECT ${CHANGE_COLUMNS}
  FROM concierge_activity_changes WHERE owner_id = $1 AND activity_id = ANY ($2::text[]) ORDER BY seq`;

const SET_ACTIVITIES = `
  UPDATE concierge_activities a SET status = r.status, classification = r.classification,
      updated_at = clock_timestamp()
  FROM jsonb_to_recordset($2::jsonb) AS r (id text, status text, classification jsonb)
  WHERE a.owner_id = $1 AND a.id = r.id`;

const MARK_CHANGES = `
  UPDATE concierge_activity_changes SET undone = (seq = ANY ($2::bigint[]))
  WHERE owner_id = $1 AND seq = ANY ($2::bigint[] || $3::bigint[])`;

const QUERY_PEOPLE = `
  SELECT id, email, name, relationship, notes FROM concierge_people
  WHERE owner_id = $1
    AND ($2::text IS NULL OR lower(email) = lower($2))
    AND ($3::text IS NULL OR email ILIKE $3 ESCAPE '\\' OR name ILIKE $3 ESCAPE '\\')
  ORDER BY email, id
  LIMIT $4`;

const INSERT_ACTIVITIES = `
  INSERT INTO concierge_activities (owner_id, ${ACTIVITY_COLUMNS})
  SELECT $1, r.id, r.source, r.sender, r."senderName", r.subject, r.summary, r."receivedAt", r.status,
         r.classification
  FROM jsonb_to_recordset($2::jsonb) AS r (id text, source text, sender text, "senderName" text,
       subject text, summary text, "receivedAt" timestamptz, status text, classification jsonb)
  ON CONFLICT DO NOTHING
  RETURNING id`;

const INSERT_PEOPLE = `
  INSERT INTO concierge_people (owner_id, id, email, name, relationship, notes)
  SELECT $1, r.id, r.email, r.name, r.relationship, r.notes
  FROM jsonb_to_recordset($2::jsonb) AS r (id text, email text, name text, relationship text, notes text)
  ON CONFLICT DO NOTHING
  RETURNING id`;

interface ActivityRow {
  id: string;
  source: string;
  sender: string;
  sender_name: string;
  subject: string;
  summary: string;
  received_at: Date | string;
  status: string;
  classification: unknown;
}

/**
 * The concierge's activities and people in Postgres (or PGlite), in plain parameterised SQL. Each
 * store is bound to one owner and every statement filters on it, so no owner reads another's rows.
 */
export class PgActivityStores implements ActivityStores {
  constructor(private readonly db: SqlClient) {}

  forOwner(ownerId: string): ActivityStore {
    return new PgActivityStore(this.db, ownerId);
  }

  /**
   * Everything kept for the owner, for their export (ExportedConcierge): their inbox items and the
   * people they know, as stored, unvalidated (an export must not fail on an old classification).
   */
  async exportFor(ownerId: string): Promise<ExportedConcierge> {
    const [activities, people, changes] = await Promise.all([
      this.db.query<ActivityRow & { created_at: Date | string; updated_at: Date | string }>(
        `SELECT ${ACTIVITY_COLUMNS}, created_at, updated_at FROM concierge_activities WHERE owner_id = $1 ORDER BY id`,
        [ownerId],
      ),
      this.db.query<Person>(
        `SELECT id, email, name, relationship, notes FROM concierge_people WHERE owner_id = $1 ORDER BY id`,
        [ownerId],
      ),
      this.db.query<ChangeRow>(
        `SELECT ${CHANGE_COLUMNS} FROM concierge_activity_changes WHERE owner_id = $1 ORDER BY seq`,
        [ownerId],
      ),
    ]);
    return {
      activities: activities.map((row) => ({
        id: row.id,
        source: row.source,
        sender: row.sender,
        senderName: row.sender_name,
        subject: row.subject,
        summary: row.summary,
        receivedAt: new Date(row.received_at).toISOString(),
        status: row.status as Activity['status'],
        classification: row.classification as Json,
        createdAt: new Date(row.created_at).toISOString(),
        updatedAt: new Date(row.updated_at).toISOString(),
      })),
      people,
      changes: changes.map((row) => ({
        conversationId: row.conversation_id,
        changeId: row.change_id,
        activityId: row.activity_id,
        before: { status: row.before_status, classification: row.before_classification as Json },
        after: { status: row.after_status, classification: row.after_classification as Json },
        undone: row.undone,
      })),
    };
  }

  /** Inserts the demo rows the owner lacks, in one transaction; rows already there stay as they are. */
  async seedDemo(ownerId: string, now: Date = new Date()): Promise<{ activities: number; people: number }> {
    return this.db.transaction(async (tx) => {
      const activities = await tx.query(INSERT_ACTIVITIES, [ownerId, JSON.stringify(demoActivities(now))]);
      const people = await tx.query(INSERT_PEOPLE, [ownerId, JSON.stringify(demoPeople())]);
      return { activities: activities.length, people: people.length };
    });
  }
}

class PgActivityStore implements ActivityStore {
  constructor(
    private readonly db: SqlClient,
    private readonly ownerId: string,
  ) {}

  queryActivities(filter: ActivityFilter): Promise<Result<Activity[], ActivityStoreError>> {
    return guarded(async () => {
      const rows = await this.db.query<ActivityRow>(QUERY_ACTIVITIES, [
        this.ownerId,
        filter.status ?? null,
        filter.ids ?? null,
        filter.type ?? null,
        filter.text === undefined ? null : `%${escapeLike(filter.text)}%`,
        filter.since ?? null,
        filter.limit ?? DEFAULT_QUERY_LIMIT,
      ]);
      return ok(rows.map(activityOf));
    });
  }

  updateActivities(
    ids: readonly string[],
    updates: ActivityUpdates,
    by?: ChangeMaker,
  ): Promise<Result<ActivityUpdateResult, ActivityStoreError>> {
    const unique = [...new Set(ids)];
    return guarded(() =>
      this.db.transaction(async (tx) => {
        // Locked first, so the check and the update see the same rows: all of them or none.
        const found = await tx.query<ValuesRow>(LOCK_ACTIVITIES, [this.ownerId, unique]);
        const known = new Set(found.map((r) => r.id));
        const unknown = unique.filter((id) => !known.has(id));
        if (unknown.length > 0) return err(unknownIds(unknown));
        const after = await tx.query<ValuesRow>(UPDATE_ACTIVITIES, [
          this.ownerId,
          unique,
          updates.status ?? null,
          JSON.stringify(updates.classification ?? {}),
        ]);
        if (by) {
          const before = new Map(found.map((r) => [r.id, r]));
          const log = after.map((r) => ({
            id: r.id,
            before_status: before.get(r.id)?.status,
            before_classification: before.get(r.id)?.classification,
            after_status: r.status,
            after_classification: r.classification,
          }));
          await tx.query(LOG_CHANGES, [this.ownerId, by.conversationId, by.changeId, JSON.stringify(log)]);
        }
        return ok({ updatedCount: unique.length, activityIds: unique });
      }),
    );
  }

  followHead(
    conversationId: string,
    holding: readonly string[],
  ): Promise<Result<{ undone: number; redone: number }, ActivityStoreError>> {
    return guarded(async () => {
      // Most conversations changed nothing: one read, and no transaction, says so. (Only this
      // conversation's runner adds to what it touched, and that runner is the one opening.)
      const touched = await this.db.query<{ activity_id: string }>(TOUCHED_BY, [
        this.ownerId,
        conversationId,
      ]);
      if (touched.length === 0) return ok({ undone: 0, redone: 0 });
      const ids = touched.map((r) => r.activity_id);
      return this.db.transaction(async (tx) => {
        // Locked before the log is read: another conversation's change to them waits for this one.
        const rows = await tx.query<ValuesRow>(LOCK_ACTIVITIES, [this.ownerId, ids]);
        const changes = await tx.query<ChangeRow>(CHANGES_OF, [this.ownerId, ids]);
        const plan = followHeadPlan(
          conversationId,
          new Set(holding),
          changes.map(changeOf),
          new Map(rows.map((r) => [r.id, valuesOf(r)])),
        );
        if (plan.writes.length > 0) {
          const writes = plan.writes.map((w) => ({ id: w.activityId, ...w.values }));
          await tx.query(SET_ACTIVITIES, [this.ownerId, JSON.stringify(writes)]);
        }
        if (plan.undone.length + plan.redone.length > 0) {
          const seqs = (changes: ActivityChange[]) => changes.map((c) => c.seq);
          await tx.query(MARK_CHANGES, [this.ownerId, seqs(plan.undone), seqs(plan.redone)]);
        }
        return ok({ undone: plan.undone.length, redone: plan.redone.length });
      });
    });
  }

  queryPeople(filter: PeopleFilter): Promise<Result<Person[], ActivityStoreError>> {
    return guarded(async () => {
      const rows = await this.db.query(QUERY_PEOPLE, [
        this.ownerId,
        filter.email ?? null,
        filter.search === undefined ? null : `%${escapeLike(filter.search)}%`,
        filter.limit ?? DEFAULT_QUERY_LIMIT,
      ]);
      return ok(rows.map((row) => PersonSchema.parse(row)));
    });
  }
}

/** An activity's status and classification as stored. */
interface ValuesRow {
  id: string;
  status: string;
  classification: unknown;
}

/** A row of concierge_activity_changes. */
interface ChangeRow {
  seq: string | number;
  conversation_id: string;
  change_id: string;
  activity_id: string;
  before_status: string;
  before_classification: unknown;
  after_status: string;
  after_classification: unknown;
  undone: boolean;
}

const ActivityValuesSchema = ActivitySchema.pick({ status: true, classification: true });

function valuesOf(row: { status: string; classification: unknown }): ActivityValues {
  return ActivityValuesSchema.parse(row);
}

function changeOf(row: ChangeRow): ActivityChange {
  return {
    seq: Number(row.seq),
    conversationId: row.conversation_id,
    changeId: row.change_id,
    activityId: row.activity_id,
    before: valuesOf({ status: row.before_status, classification: row.before_classification }),
    after: valuesOf({ status: row.after_status, classification: row.after_classification }),
    undone: row.undone,
  };
}

function activityOf(row: ActivityRow): Activity {
  return ActivitySchema.parse({
    id: row.id,
    source: row.source,
    sender: row.sender,
    senderName: row.sender_name,
    subject: row.subject,
    summary: row.summary,
    receivedAt: new Date(row.received_at).toISOString(),
    status: row.status,
    classification: row.classification,
  });
}

/** The user's text as a literal inside a LIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A database failure is an expected outcome for the tools (they tell the model), not a crash. */
async function guarded<T>(
  work: () => Promise<Result<T, ActivityStoreError>>,
): Promise<Result<T, ActivityStoreError>> {
  try {
    return await work();
  } catch (error) {
    return err({ code: 'unavailable', message: error instanceof Error ? error.message : String(error) });
  }
}
