import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `concierge_activity_changes`: each change a conversation's update_activities call made to an
 * activity, with the activity's status and classification before and after, so the activities
 * follow the conversation's HEAD (libs/agents/concierge's activity-changes): a runner opened after
 * a rewind undoes the changes of the branch left (`undone`), one opened after a recover redoes them.
 * `seq` orders changes across conversations: only the newest change in force is ever undone. A
 * call made again (its turn replayed after a crash) is the same row: (conversation, change,
 * activity) is unique. The rows go with their activity (ON DELETE CASCADE, as an account's
 * deletion removes its activities).
 */
export class ActivityChanges1795590000000 implements MigrationInterface {
  name = 'ActivityChanges1795590000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE concierge_activity_changes (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        owner_id text NOT NULL,
        activity_id text NOT NULL,
        conversation_id text NOT NULL,
        change_id text NOT NULL,
        before_status text NOT NULL,
        before_classification jsonb NOT NULL,
        after_status text NOT NULL,
        after_classification jsonb NOT NULL,
        undone boolean NOT NULL DEFAULT false,
        UNIQUE (conversation_id, change_id, activity_id),
        FOREIGN KEY (owner_id, activity_id) REFERENCES concierge_activities (owner_id, id) ON DELETE CASCADE
      )`);
    // Following HEAD reads every change to the activities a conversation touched, in order.
    await q.query(`
      CREATE INDEX concierge_activity_changes_activity_idx
        ON concierge_activity_changes (owner_id, activity_id, seq)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE ON concierge_activity_changes TO sweatpants_app`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE concierge_activity_changes`);
  }
}
