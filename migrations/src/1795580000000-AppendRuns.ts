import type { MigrationInterface, QueryRunner } from 'typeorm';
import { storeFunction } from './store-functions';

/**
 * `tree_append_runs` (migrations/sql/tree_append_runs.sql): several runs of nodes, each its own
 * HEAD move and reflog row, in one statement. A turn's writer stores a person's answer and the
 * agent's nodes that follow it in one round trip instead of two.
 */
export class AppendRuns1795580000000 implements MigrationInterface {
  name = 'AppendRuns1795580000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(storeFunction('tree_append_runs'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP FUNCTION tree_append_runs(uuid, text, text, text[], text[], jsonb[], text[], timestamptz[], integer[], text[], text[], text[])`,
    );
  }
}
