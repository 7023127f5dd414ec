// The reflog (`reflog g`, with its ref `refs r`): every move of a ref, with the row each statement
// returns beside it. A ref's rows are numbered by `seq`; the ref's `reflog_seq` is its newest row's.

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

/** The select list that produces a ReflogRow from `reflog g` joined to its `refs r`. */
export const REFLOG_COLUMNS = `g.id, g.ref, g.seq, r.reflog_seq AS top, encode(g.old_node, 'hex') AS old_node,
  encode(g.new_node, 'hex') AS new_node, g.action, g.actor_id, g.message, g.created_at`;

/**
 * A page of conversation $1's HEAD moves, newest first, below seq $2 (null: from the newest), at
 * most $3; every page costs the same. Returns ReflogRow.
 */
export const HEAD_REFLOG_PAGE = `SELECT ${REFLOG_COLUMNS} FROM refs r
  JOIN reflog g ON g.conversation_id = r.conversation_id AND g.ref = r.name
  WHERE r.conversation_id = $1 AND r.name = 'HEAD' AND ($2::bigint IS NULL OR g.seq < $2)
  ORDER BY g.seq DESC LIMIT $3`;

/** Reflog row $1 of conversation $2. Returns ReflogRow. */
export const REFLOG_ENTRY = `SELECT ${REFLOG_COLUMNS} FROM reflog g JOIN refs r ON r.conversation_id = g.conversation_id AND r.name = g.ref
  WHERE g.id = $1 AND g.conversation_id = $2`;

/** A reflog row of the audit across conversations: whose conversation it is too. */
export interface AdminReflogRow extends ReflogRow {
  conversation_id: string;
  owner_id: string;
}

/**
 * Every conversation's moves, newest first, each filter ignored when null: owner $1, conversation
 * $2, action $3, at or after $4, before $5, below reflog id $6 (the cursor); at most $7. Returns
 * AdminReflogRow.
 */
export const REFLOG_ACROSS = `SELECT ${REFLOG_COLUMNS}, g.conversation_id, c.owner_id
  FROM reflog g
  JOIN conversations c ON c.id = g.conversation_id
  JOIN refs r ON r.conversation_id = g.conversation_id AND r.name = g.ref
  WHERE ($1::text IS NULL OR c.owner_id = $1)
    AND ($2::uuid IS NULL OR g.conversation_id = $2)
    AND ($3::text IS NULL OR g.action = $3)
    AND ($4::timestamptz IS NULL OR g.created_at >= $4)
    AND ($5::timestamptz IS NULL OR g.created_at < $5)
    AND ($6::bigint IS NULL OR g.id < $6)
  ORDER BY g.id DESC LIMIT $7`;

/** Where a reflog row put its ref, its action, and how many moves ago that was. */
export interface RecoverTargetRow {
  new_node: string;
  action: string;
  index: string;
}

/** Where reflog row $1 of conversation $2 put its ref (what a recover moves HEAD back to). Returns RecoverTargetRow. */
export const RECOVER_TARGET = `SELECT encode(g.new_node, 'hex') AS new_node, g.action, r.reflog_seq - g.seq AS index
  FROM reflog g JOIN refs r ON r.conversation_id = g.conversation_id AND r.name = g.ref
  WHERE g.id = $1 AND g.conversation_id = $2`;

/** A reflog row as fsck checks it: one link of the chain old_node → new_node. */
export interface ReflogLinkRow {
  id: string;
  seq: string;
  old_node: string | null;
  new_node: string;
}

/** Every reflog row of ref $2 of conversation $1, oldest first, for fsck. Returns ReflogLinkRow. */
export const REFLOG_OF_REF = `SELECT id, seq, encode(old_node, 'hex') AS old_node, encode(new_node, 'hex') AS new_node FROM reflog
  WHERE conversation_id = $1 AND ref = $2 ORDER BY seq`;
