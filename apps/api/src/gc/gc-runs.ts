import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CompactionState, GcRun } from '@sweatpants/domain';
import type { RetentionPolicy, SqlClient } from '@sweatpants/tree-store';
import { SQL_CLIENT } from '../database/database.module';

interface GcRunRow {
  id: string;
  requested_by: string;
  dry_run: boolean;
  reachable_days: number;
  unreachable_days: number;
  started_at: Date | string;
  finished_at: Date | string | null;
  conversations: number;
  reflog_entries: number;
  nodes: number;
  error: string | null;
}

/** What a finished run removed (or, dry, would have). */
export interface GcCounts {
  conversations: number;
  reflogEntries: number;
  nodes: number;
}

/** What a run that never finished says: its process ended (a crash, a restart) while it ran. */
export const ABANDONED = 'stopped before it finished (its process ended); the next run takes up what it left';

/**
 * The `gc_runs` table: a row when a run starts, completed when it ends, read by admins. A run whose
 * process dies mid-way cannot complete its own row: closeAbandoned does, asking the queue.
 */
@Injectable()
export class GcRuns {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async start(run: {
    jobId: string;
    requestedBy: string;
    dryRun: boolean;
    policy: RetentionPolicy;
  }): Promise<string> {
    const id = randomUUID();
    // The same job started before and did not finish: its worker died and BullMQ handed it on.
    await this.db.query(
      `UPDATE gc_runs SET finished_at = clock_timestamp(), error = $2 WHERE job_id = $1 AND finished_at IS NULL`,
      [run.jobId, ABANDONED],
    );
    await this.db.query(
      `INSERT INTO gc_runs (id, job_id, requested_by, dry_run, reachable_days, unreachable_days)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, run.jobId, run.requestedBy, run.dryRun, run.policy.reachableDays, run.policy.unreachableDays],
    );
    return id;
  }

  /**
   * Closes the runs left unfinished by a process that died: those whose job the queue is neither
   * running nor about to run again (`stateOf` answers from the queue). Without this an admin would
   * see "Running…" for ever, and the buttons that wait for a run to end would never come back. A run
   * that was only slow and does finish after all overwrites the mark with what it did (finish).
   */
  async closeAbandoned(stateOf: (jobId: string) => Promise<CompactionState | undefined>): Promise<void> {
    const open = await this.db.query<{ id: string; job_id: string }>(
      `SELECT id, job_id FROM gc_runs WHERE finished_at IS NULL ORDER BY started_at LIMIT 100`,
    );
    for (const row of open) {
      // Queue away (Redis down): nothing is known, nothing is closed.
      const state = await stateOf(row.job_id).catch(() => 'unknown' as const);
      if (state === 'active' || state === 'waiting' || state === 'unknown') continue;
      await this.db.query(
        `UPDATE gc_runs SET finished_at = clock_timestamp(), error = $2 WHERE id = $1 AND finished_at IS NULL`,
        [row.id, ABANDONED],
      );
    }
  }

  /** A run's end: what it removed, or why it stopped (with what it had removed by then, if known). */
  async finish(id: string, outcome: { counts: GcCounts; error?: string } | { error: string }): Promise<void> {
    const counts = 'counts' in outcome ? outcome.counts : { conversations: 0, reflogEntries: 0, nodes: 0 };
    await this.db.query(
      `UPDATE gc_runs SET finished_at = clock_timestamp(), conversations = $2, reflog_entries = $3, nodes = $4,
              error = $5
       WHERE id = $1`,
      [id, counts.conversations, counts.reflogEntries, counts.nodes, outcome.error?.slice(0, 2000) ?? null],
    );
  }

  /** The newest runs first. */
  async list(limit: number): Promise<GcRun[]> {
    const rows = await this.db.query<GcRunRow>(
      `SELECT id, requested_by, dry_run, reachable_days, unreachable_days, started_at, finished_at,
              conversations, reflog_entries, nodes, error
       FROM gc_runs ORDER BY started_at DESC, id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      requestedBy: r.requested_by,
      dryRun: r.dry_run,
      policy: { reachableDays: r.reachable_days, unreachableDays: r.unreachable_days },
      startedAt: iso(r.started_at),
      finishedAt: r.finished_at === null ? null : iso(r.finished_at),
      conversations: r.conversations,
      reflogEntries: r.reflog_entries,
      nodes: r.nodes,
      error: r.error,
    }));
  }
}

/** pg gives a Date, PGlite may too; either way an ISO string leaves here. */
function iso(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
