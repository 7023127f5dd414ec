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
  unknownIds,
  type ActivityStore,
  type ActivityStoreError,
  type ActivityStores,
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
  SELECT id FROM concierge_activities WHERE owner_id = $1 AND id = ANY ($2::text[]) FOR UPDATE`;

// `||` merges the partial classification over the stored one: the fields given replace.
const UPDATE_ACTIVITIES = `
  UPDATE concierge_activities
  SET status = COALESCE($3, status), classification = classification || $4::jsonb,
      updated_at = clock_timestamp()
  WHERE owner_id = $1 AND id = ANY ($2::text[])`;

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
    const [activities, people] = await Promise.all([
      this.db.query<ActivityRow & { created_at: Date | string; updated_at: Date | string }>(
        `SELECT ${ACTIVITY_COLUMNS}, created_at, updated_at FROM concierge_activities WHERE owner_id = $1 ORDER BY id`,
        [ownerId],
      ),
      this.db.query<Person>(
        `SELECT id, email, name, relationship, notes FROM concierge_people WHERE owner_id = $1 ORDER BY id`,
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
  ): Promise<Result<ActivityUpdateResult, ActivityStoreError>> {
    const unique = [...new Set(ids)];
    return guarded(() =>
      this.db.transaction(async (tx) => {
        // Locked first, so the check and the update see the same rows: all of them or none.
        const found = await tx.query<{ id: string }>(LOCK_ACTIVITIES, [this.ownerId, unique]);
        const known = new Set(found.map((r) => r.id));
        const unknown = unique.filter((id) => !known.has(id));
        if (unknown.length > 0) return err(unknownIds(unknown));
        await tx.query(UPDATE_ACTIVITIES, [
          this.ownerId,
          unique,
          updates.status ?? null,
          JSON.stringify(updates.classification ?? {}),
        ]);
        return ok({ updatedCount: unique.length, activityIds: unique });
      }),
    );
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
