import { ALL_CONVERSATION_IDS, type ConversationIdRow } from './sql';
import type { SqlExecutor } from './sql-client';
import { treeGc } from './store-functions';
import { isConversationId } from './tree-reader';

/** How long reflog entries are kept: git's defaults (gc.reflogExpire, gc.reflogExpireUnreachable). */
export interface RetentionPolicy {
  /** entries whose target a ref still reaches */
  reachableDays: number;
  /** entries whose target no ref reaches (a discarded branch) */
  unreachableDays: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { reachableDays: 90, unreachableDays: 30 };

export interface GcReport {
  dryRun: boolean;
  conversations: number;
  /** reflog entries expired (or that would be) */
  reflogEntries: string[];
  /** nodes deleted (or that would be) */
  nodes: string[];
}

/**
 * Garbage collection with the retention policy: expires old reflog entries (oldest first, never a
 * ref's newest), then deletes the nodes that no ref and no retained entry reaches. The deletion runs
 * in the database's privileged `tree_gc`, the only path that may delete nodes or reflog rows.
 */
export async function gc(
  db: SqlExecutor,
  options: { conversationId?: string; now?: Date; dryRun?: boolean; policy?: RetentionPolicy } = {},
): Promise<GcReport> {
  const policy = options.policy ?? DEFAULT_RETENTION;
  const dryRun = options.dryRun ?? false;
  const now = (options.now ?? new Date()).toISOString();
  let ids: string[];
  if (options.conversationId !== undefined) {
    ids = isConversationId(options.conversationId) ? [options.conversationId] : [];
  } else {
    ids = (await db.query<ConversationIdRow>(ALL_CONVERSATION_IDS)).map((r) => r.id);
  }
  const report: GcReport = { dryRun, conversations: 0, reflogEntries: [], nodes: [] };
  for (const id of ids) {
    const rows = await treeGc(db, {
      conversation: id,
      now,
      reachableDays: policy.reachableDays,
      unreachableDays: policy.unreachableDays,
      dryRun,
    });
    report.conversations++;
    for (const row of rows) (row.kind === 'node' ? report.nodes : report.reflogEntries).push(row.id);
  }
  return report;
}
