import type { MigrationInterface, QueryRunner } from 'typeorm';

const ACTIONS_BEFORE = [
  'create',
  'append',
  'rewind',
  'edit',
  'cancel',
  'recover',
  'compact',
  'fork',
  'return',
];
const ACTIONS = [...ACTIONS_BEFORE, 'regenerate'];
const actionCheck = (actions: readonly string[]) =>
  `CHECK (action IN (${actions.map((a) => `'${a}'`).join(', ')}))`;

/**
 * Regenerate and the owner's list by activity.
 *
 * - The reflog's `action` accepts `regenerate` (HEAD moves back to the message a reply answered, so
 *   the agent answers it again). The check was written inline in ConversationTree, so PostgreSQL
 *   named it `reflog_action_check`; the tree functions take the action as given and list none.
 * - The owner's list reads live conversations by last activity (`updated_at`, bumped by every move
 *   of HEAD), most recent first, paged by keyset on (updated_at, id): one index range scan.
 */
export class RegenerateAndActivityIndex1795440000000 implements MigrationInterface {
  name = 'RegenerateAndActivityIndex1795440000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE reflog DROP CONSTRAINT reflog_action_check,
         ADD CONSTRAINT reflog_action_check ${actionCheck(ACTIONS)}`,
    );
    await q.query(
      `CREATE INDEX conversations_owner_activity_idx
         ON conversations (owner_id, updated_at DESC, id DESC) WHERE archived_at IS NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX conversations_owner_activity_idx`);
    // Reflog rows are immutable (nothing may rewrite or delete them), so `regenerate` rows already
    // written stay: the old check comes back NOT VALID, refusing the action from now on without
    // judging the history.
    await q.query(
      `ALTER TABLE reflog DROP CONSTRAINT reflog_action_check,
         ADD CONSTRAINT reflog_action_check ${actionCheck(ACTIONS_BEFORE)} NOT VALID`,
    );
  }
}
