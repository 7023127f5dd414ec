import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Garbage collection runs on a schedule (the `tree.gc` job); each run leaves a row here for admins:
 * who asked, the policy, and how many reflog entries and nodes went. Counts only: what gc forgot is
 * not kept here. The api writes a row when a run starts and completes it when the run ends.
 */
export class GcRuns1795451000000 implements MigrationInterface {
  name = 'GcRuns1795451000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE gc_runs (
        id uuid PRIMARY KEY,
        job_id text NOT NULL,
        requested_by text NOT NULL,
        dry_run boolean NOT NULL,
        reachable_days integer NOT NULL CHECK (reachable_days >= 0),
        unreachable_days integer NOT NULL CHECK (unreachable_days >= 0),
        started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        finished_at timestamptz,
        conversations integer NOT NULL DEFAULT 0,
        reflog_entries integer NOT NULL DEFAULT 0,
        nodes integer NOT NULL DEFAULT 0,
        error text
      )`);
    await q.query(`CREATE INDEX gc_runs_started_idx ON gc_runs (started_at DESC, id DESC)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON gc_runs TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE gc_runs`);
  }
}
