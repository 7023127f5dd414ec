import {
  err,
  ok,
  type Json,
  type NodeDraft,
  type ReflogEntry,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import { iso } from './rows';
import { LOCK_LIVE_HEAD } from './sql';
import type { SqlExecutor } from './sql-client';
import { invalid, notFound, type StoreError } from './store-error';
import { isConversationId, TreeReader } from './tree-reader';
import type { AppendDraft } from './node-chain';
import { TreeWriter } from './tree-writer';

export interface SquashInput {
  conversationId: string;
  /** the first node of the range the summary replaces */
  fromId: string;
  /** the last node of the range (inclusive) */
  toId: string;
  text: string;
  /**
   * The agents' states folded over the path up to `toId`, keyed by summaryStateKey: folds that
   * pass the summary take them instead of the nodes it replaces (libs/domain applyNode).
   */
  states?: { [key: string]: Json };
  /** who wrote the summary, e.g. `agent:compactor` */
  authorId: string;
  actorId: string;
}

export interface Squashed {
  summary: TreeNode<'summary'>;
  head: string;
  /** null when the range had already been compacted: nothing moved */
  reflog: ReflogEntry | null;
  /** how many nodes after the range were re-appended onto the summary */
  rebased: number;
}

/** Why a squash did not happen: the store's errors, or HEAD no longer runs through the range. */
export type SquashError = StoreError | { code: 'head_left_branch'; message: string; head: string };

/**
 * Squash-and-rebase, git's way: a summary node replaces the range [from, to] of HEAD's path (its
 * parent is the node before the range), the tail after the range is re-appended onto it as new
 * nodes, and HEAD moves there by compare-and-swap with a `compact` reflog row. The old chain stays
 * reachable through the reflog. HEAD is read at the moment of the squash, under the conversation's
 * lock, so a tail that grew while the summary was written is rebased too; if HEAD left the branch,
 * the squash gives up and says so. Run it inside a transaction.
 */
export async function squashAndRebase(
  db: SqlExecutor,
  input: SquashInput,
): Promise<Result<Squashed, SquashError>> {
  const reader = new TreeReader(db);
  if (!isConversationId(input.conversationId)) return err(notFound('no such conversation'));
  // Holding HEAD's row keeps every other writer out until the squash commits.
  const live = await db.query(LOCK_LIVE_HEAD, [input.conversationId]);
  if (live.length === 0) return err(notFound('no such conversation'));
  const head = await reader.head(input.conversationId);
  const from = await reader.position(input.conversationId, input.fromId);
  const to = await reader.position(input.conversationId, input.toId);
  if (!head || !from || !to) return err(notFound('no such node in this conversation'));
  if (from.depth === 0)
    return err(invalid('the root cannot be compacted', [{ field: 'fromId', message: 'is the root' }]));
  if (!(await reader.isAncestor(from, to))) {
    return err(
      invalid('the range is not a path', [{ field: 'fromId', message: 'is not an ancestor of toId' }]),
    );
  }

  // Already done? Then HEAD's path holds a summary of exactly this range where the range began.
  const atStart = await reader.ancestor(head, head.depth - from.depth);
  if (atStart && atStart.id !== from.id) {
    const [existing] = await reader.pathRows(atStart, from.depth - 1);
    const covers = (existing?.payload as { covers?: { fromId?: string; toId?: string } } | undefined)?.covers;
    if (existing?.kind === 'summary' && covers?.fromId === input.fromId && covers.toId === input.toId) {
      return ok({
        summary: summaryNode(input.conversationId, existing),
        head: head.id,
        reflog: null,
        rebased: 0,
      });
    }
  }
  if (!(await reader.isAncestor(to, head))) {
    return err({
      code: 'head_left_branch',
      message: 'HEAD no longer runs through the range to compact; nothing was changed',
      head: head.id,
    });
  }

  const [beforeRange] = await reader.pathRows(from, from.depth - 2);
  const tail = await reader.pathRows(head, to.depth);
  if (!beforeRange) throw new Error('compaction: the node before the range is missing');
  const count = to.depth - from.depth + 1;
  const summary: NodeDraft = {
    kind: 'summary',
    payload: {
      text: input.text,
      covers: { fromId: input.fromId, toId: input.toId, count },
      ...(input.states ? { states: input.states } : {}),
    },
    authorId: input.authorId,
  };
  // The tail keeps its content, authors and times; under the summary its nodes get new ids.
  const rebased = tail.map(
    (row) =>
      ({
        kind: row.kind,
        payload: row.payload as Json,
        authorId: row.author_id,
        createdAt: iso(row.created_at),
      }) as AppendDraft,
  );
  const appended = await new TreeWriter(db).append({
    conversationId: input.conversationId,
    nodes: [summary, ...rebased],
    parentId: beforeRange.id,
    expectedHead: head.id,
    action: 'compact',
    actorId: input.actorId,
    message: `compact: ${count} nodes into a summary, ${tail.length} rebased onto it`,
  });
  if (!appended.ok) return appended;
  const [node] = appended.value.nodes;
  return ok({
    summary: node as TreeNode<'summary'>,
    head: appended.value.head,
    reflog: appended.value.reflog,
    rebased: tail.length,
  });
}

function summaryNode(
  conversationId: string,
  row: {
    id: string;
    parent_id: string | null;
    depth: number;
    payload: unknown;
    author_id: string;
    created_at: Date | string;
  },
): TreeNode<'summary'> {
  return {
    id: row.id,
    conversationId,
    parentId: row.parent_id,
    depth: row.depth,
    kind: 'summary',
    payload: row.payload as TreeNode<'summary'>['payload'],
    authorId: row.author_id,
    createdAt: iso(row.created_at),
  };
}
