import type { NodeDraft, ReflogAction, ReflogEntry } from '@sweatpants/domain';
import { iso } from './rows';

// What the SQL functions that move a ref report (tree_append, tree_move: one row each), the
// reflog entry a move wrote as the store returns it, and the message a move's reflog row carries.

/** A tree_append row. */
export interface AppendRow {
  status: 'ok' | 'conflict' | 'not_found' | 'bad_parent';
  head: string | null;
  old_head: string | null;
  reflog_id: string | null;
  reflog_seq: string | null;
  reflog_at: Date | null;
  first_depth: number | null;
}

/** A tree_move row. */
export interface MoveRow {
  status: 'ok' | 'conflict' | 'not_found' | 'bad_target';
  head: string | null;
  old_head: string | null;
  reflog_id: string | null;
  reflog_seq: string | null;
  reflog_at: Date | null;
}

/** The reflog entry of the HEAD move a tree_append or tree_move row reports; it is the newest. */
export function movedEntry(
  row: AppendRow | MoveRow,
  action: ReflogAction,
  actorId: string,
  message: string,
): ReflogEntry {
  return {
    id: String(row.reflog_id),
    index: 0,
    ref: 'HEAD',
    oldHead: row.old_head,
    newHead: row.head as string,
    action,
    actorId,
    message,
    createdAt: iso(row.reflog_at as Date),
  };
}

/** A short, git-like description of what a move did, for the reflog's message column. */
/**
 * A reflog message with how the actor acted, when that is worth keeping ("via MCP, token
 * 'laptop'"): the entry says who moved HEAD, and this says through what.
 */
export function withNote(message: string, note: string | undefined): string {
  return note ? `${message} (${note})` : message;
}

export function describe(action: ReflogAction, node?: NodeDraft): string {
  if (!node) return action;
  const p = node.payload as Record<string, unknown>;
  const text =
    typeof p['text'] === 'string' ? p['text'] : typeof p['message'] === 'string' ? p['message'] : '';
  const preview = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return preview ? `${action}: ${node.kind} "${preview}"` : `${action}: ${node.kind}`;
}
