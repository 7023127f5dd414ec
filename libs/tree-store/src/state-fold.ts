import { applyNode, ok, type Json, type Result, type StateReducer } from '@sweatpants/domain';
import { toNode } from './rows';
import { INSERT_SNAPSHOTS, NEWEST_SNAPSHOT, type SnapshotRow } from './sql';
import type { SqlExecutor } from './sql-client';
import type { StoreError } from './store-error';
import { TreeReader } from './tree-reader';

/** Snapshots are cached on nodes whose depth is a multiple of this, so a fold reads at most this many nodes. */
export const SNAPSHOT_INTERVAL = 64;

/**
 * State at a ref: the newest cached snapshot on the path, then the nodes after it folded in.
 * Snapshots are derived data (safe to drop); the fold caches the ones it passes.
 */
export class StateFold {
  private readonly reader: TreeReader;

  constructor(
    private readonly db: SqlExecutor,
    private readonly interval = SNAPSHOT_INTERVAL,
  ) {
    this.reader = new TreeReader(db);
  }

  async at<S extends Json>(
    conversationId: string,
    ref: string,
    reducer: StateReducer<S>,
  ): Promise<Result<{ at: string; state: S }, StoreError>> {
    const tip = await this.reader.resolve(conversationId, ref);
    if (!tip.ok) return tip;
    const key = `${reducer.name}@${reducer.version}`;
    const [snapshot] = await this.db.query<SnapshotRow<S>>(NEWEST_SNAPSHOT, [
      tip.value.segmentId,
      tip.value.depth,
      key,
    ]);
    let state = snapshot ? snapshot.state : reducer.initial;
    const rows = await this.reader.pathRows(tip.value, snapshot ? snapshot.depth : -1);
    const fresh: { id: string; segmentId: string; depth: number; state: S }[] = [];
    for (const row of rows) {
      state = applyNode(reducer, state, toNode(conversationId, row));
      if (row.depth > 0 && row.depth % this.interval === 0) {
        fresh.push({ id: row.id, segmentId: String(row.segment_id), depth: row.depth, state });
      }
    }
    if (fresh.length > 0) {
      await this.db.query(INSERT_SNAPSHOTS, [
        key,
        fresh.map((f) => f.id),
        fresh.map((f) => f.segmentId),
        fresh.map((f) => f.depth),
        fresh.map((f) => JSON.stringify(f.state)),
      ]);
    }
    return ok({ at: tip.value.id, state });
  }
}
