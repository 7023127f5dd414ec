import type { MigrationInterface, QueryRunner } from 'typeorm';
import { storeFunction } from './store-functions';

/**
 * Reading a conversation's context from its latest summaries (TreeStore.pathFromSummary), at a
 * cost that does not grow with the depth above them.
 *
 * - `nodes_summary_idx`, a partial index of the summary nodes by (segment, depth): the deepest
 *   summary on a path is one probe per segment of it, instead of a scan of the path. Summaries are
 *   a small share of the nodes (one per compaction), so the index stays small.
 * - `tree_summary_base` (migrations/sql/tree_summary_base.sql): the depth the read begins at.
 */
export class PathFromSummary1795490000000 implements MigrationInterface {
  name = 'PathFromSummary1795490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX nodes_summary_idx ON nodes (segment_id, depth) WHERE kind = 'summary'`);
    await q.query(storeFunction('tree_summary_base'));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION tree_summary_base(bigint, integer)`);
    await q.query(`DROP INDEX nodes_summary_idx`);
  }
}
