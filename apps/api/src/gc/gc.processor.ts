import { Logger } from '@nestjs/common';
import type { JobPayloads } from '@sweatpants/domain';
import type { RetentionPolicy, TreeStore } from '@sweatpants/tree-store';
import type { GcOutcome, JobRun } from '../queue/job-processors';
import type { GcCounts, GcRuns } from './gc-runs';

/** Told how many nodes and reflog entries a run removed (the metrics' gc counter). */
export type GcRemovedListener = (counts: GcCounts & { dryRun: boolean }) => void;

/**
 * A step of gc after the tree's own, in the same run: what can only be known once the nodes are
 * gone. Removing the content-addressed blobs (photos) that no retained node references any more
 * is the one planned: it goes in GC_SWEEPS (gc-sweeps.ts) and runs here, after node gc.
 */
export interface GcSweep {
  /** what it removes, plural, for the log and the job's result: `blobs` */
  readonly name: string;
  /** Removes what it is for (a dry run only counts it); returns how many. */
  sweep(options: { dryRun: boolean; signal: AbortSignal }): Promise<number>;
}

/**
 * The `tree.gc` job: the tree store's gc over every conversation with the retention policy, then
 * each sweep, the run recorded in `gc_runs`.
 *
 * Safe beside live writers. `tree_gc` (one transaction per conversation) first locks every ref row
 * of the conversation, and every writer's first write is to the ref row too (tree_append's and
 * tree_move's compare-and-swap, a squash's SELECT … FOR UPDATE): a writer of that conversation
 * waits for gc to commit, or gc waits for the writer and then, in a fresh snapshot, sees what it
 * wrote. No writer can therefore add a node, a child or a reflog row while gc decides what is
 * reachable and deletes. An append checks its parent before that lock, but the parent is HEAD or on
 * HEAD's path, and a compare-and-swap that succeeds proves HEAD did not move, so gc kept it. A move
 * to a node kept only by a reflog entry that expires at that moment (a recover of a 30-day-old
 * entry) may lose the race: the database refuses the dangling reflog row, and the move fails whole.
 */
export class GcProcessor {
  private readonly logger = new Logger('Gc');

  constructor(
    private readonly store: TreeStore,
    private readonly runs: GcRuns,
    private readonly policy: RetentionPolicy,
    private readonly configuredDryRun: boolean,
    private readonly onRemoved: GcRemovedListener = () => undefined,
    private readonly sweeps: readonly GcSweep[] = [],
  ) {}

  async process(payload: JobPayloads['tree.gc'], run: JobRun): Promise<GcOutcome> {
    // GC_DRY_RUN makes every run dry, whoever asks: an operator trying the policy out.
    const dryRun = payload.dryRun || this.configuredDryRun;
    const runId = await this.runs.start({
      jobId: run.jobId,
      requestedBy: payload.requestedBy,
      dryRun,
      policy: this.policy,
    });
    let counts: GcCounts | undefined;
    try {
      // 1. The tree: expired reflog entries, then the nodes nothing retained reaches.
      const report = await this.store.gc({ dryRun, policy: this.policy });
      counts = {
        conversations: report.conversations,
        reflogEntries: report.reflogEntries.length,
        nodes: report.nodes.length,
      };
      this.onRemoved({ ...counts, dryRun });
      // 2. What hangs off the nodes, now that the nodes that went are gone.
      const swept: Record<string, number> = {};
      for (const sweep of this.sweeps) swept[sweep.name] = await sweep.sweep({ dryRun, signal: run.signal });
      await this.runs.finish(runId, { counts });
      this.logger.log(
        `${dryRun ? 'dry run: would remove' : 'removed'} ${counts.reflogEntries} reflog entries and ` +
          `${counts.nodes} nodes across ${counts.conversations} conversations` +
          Object.entries(swept)
            .map(([name, n]) => `, ${n} ${name}`)
            .join(''),
      );
      return { runId, dryRun, ...counts, swept };
    } catch (error) {
      // What the tree's gc removed is reported even when a sweep after it failed.
      const message = error instanceof Error ? error.message : String(error);
      await this.runs.finish(runId, { ...(counts ? { counts } : {}), error: message });
      throw error;
    }
  }
}
