import type { NodeKind, NodePayload, ReflogAction, ReflogEntry, TreeNode } from '@sweatpants/domain';

/** A node as the store's queries select it (ids hex-encoded in SQL). */
export interface NodeRow {
  id: string;
  parent_id: string | null;
  depth: number;
  segment_id: string | number;
  kind: string;
  author_id: string;
  payload: unknown;
  created_at: Date | string;
}

/** The select list that produces a NodeRow from `nodes n`. */
export const NODE_COLUMNS = `encode(n.id, 'hex') AS id, encode(n.parent_id, 'hex') AS parent_id, n.depth,
  n.segment_id, n.kind, n.author_id, n.payload, n.created_at`;

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

/** A reflog row with `top`, the seq of its ref's newest row, so that `index` can be derived. */
export interface ReflogRow {
  id: string | number;
  ref: string;
  seq: string | number;
  top: string | number;
  old_node: string | null;
  new_node: string;
  action: string;
  actor_id: string;
  message: string;
  created_at: Date | string;
}

export const REFLOG_COLUMNS = `g.id, g.ref, g.seq, r.reflog_seq AS top, encode(g.old_node, 'hex') AS old_node,
  encode(g.new_node, 'hex') AS new_node, g.action, g.actor_id, g.message, g.created_at`;

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
