import type { NodeKind, NodePayload, ReflogAction, ReflogEntry, TreeNode } from '@sweatpants/domain';
import type { NodeRow, ReflogRow } from './sql';

// Rows (their types and statements: ./sql) mapped to the domain's records, and page cursors.

export const iso = (value: Date | string): string =>
  value instanceof Date ? value.toISOString() : new Date(value).toISOString();

export function toNode(conversationId: string, row: NodeRow): TreeNode {
  return {
    id: row.id,
    conversationId,
    parentId: row.parent_id,
    depth: row.depth,
    kind: row.kind as NodeKind,
    payload: row.payload as NodePayload,
    authorId: row.author_id,
    createdAt: iso(row.created_at),
  };
}

export function toReflogEntry(row: ReflogRow): ReflogEntry {
  return {
    id: String(row.id),
    index: Number(row.top) - Number(row.seq),
    ref: row.ref,
    oldHead: row.old_node,
    newHead: row.new_node,
    action: row.action as ReflogAction,
    actorId: row.actor_id,
    message: row.message,
    createdAt: iso(row.created_at),
  };
}

/** Opaque page cursors: clients pass back what they were given. */
export const encodeCursor = (parts: (string | number)[]): string =>
  Buffer.from(parts.join(':')).toString('base64url');

export function decodeCursor(cursor: string, arity: number): string[] | null {
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split(':');
  return parts.length === arity && parts.every((p) => /^-?\d+$/.test(p)) ? parts : null;
}
