import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The concierge's activities and people (seed 003), per user. Rows are keyed by the owner's user
 * id as text, indexed, without a foreign key: the users table belongs to the accounts migration,
 * and the concierge only ever reads one owner's rows at a time. Classifications are jsonb, checked
 * by the application's zod schema; the status is checked here too, since queries filter on it.
 */
export class ConciergeActivities1795420000000 implements MigrationInterface {
  name = 'ConciergeActivities1795420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE concierge_activities (
        owner_id text NOT NULL,
        id text NOT NULL,
        source text NOT NULL,
        sender text NOT NULL,
        sender_name text NOT NULL DEFAULT '',
        subject text NOT NULL DEFAULT '',
        summary text NOT NULL DEFAULT '',
        received_at timestamptz NOT NULL,
        status text NOT NULL
          CHECK (status IN ('pending', 'surfaced', 'quarantined', 'processed', 'archived')),
        classification jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (owner_id, id)
      )`);
    // The interview's read: one owner's activities in one status, newest first.
    await q.query(`
      CREATE INDEX concierge_activities_owner_status_idx
        ON concierge_activities (owner_id, status, received_at DESC)`);

    await q.query(`
      CREATE TABLE concierge_people (
        owner_id text NOT NULL,
        id text NOT NULL,
        email text NOT NULL,
        name text NOT NULL DEFAULT '',
        relationship text NOT NULL DEFAULT '',
        notes text NOT NULL DEFAULT '',
        PRIMARY KEY (owner_id, id)
      )`);
    // query_people's exact match ignores case, and one owner knows an address once.
    await q.query(
      `CREATE UNIQUE INDEX concierge_people_email_idx ON concierge_people (owner_id, lower(email))`,
    );

    await q.query(`GRANT SELECT, INSERT, UPDATE ON concierge_activities, concierge_people TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Dropping the tables drops their indexes and the grants on them.
    await q.query(`DROP TABLE concierge_people`);
    await q.query(`DROP TABLE concierge_activities`);
  }
}
