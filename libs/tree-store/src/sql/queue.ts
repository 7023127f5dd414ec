import type { Photo } from '@sweatpants/domain';

// Messages sent while the agent works (`queued_messages`, beside the tree), with the row each
// statement returns beside it.

/** A row of `queued_messages` as it is read. */
export interface QueuedRow {
  id: string;
  text: string;
  photos: Photo[] | null;
  author_id: string;
  created_at: Date | string;
}

/** The select list that produces a QueuedRow from `queued_messages`. */
export const QUEUED_COLUMNS = 'id, text, photos, author_id, created_at';

/** Queues message $1 in conversation $2: text $3, photos $4 (JSON or null), author $5. Returns the QueuedRow. */
export const ENQUEUE = `INSERT INTO queued_messages (id, conversation_id, text, photos, author_id)
  VALUES ($1, $2, $3, $4, $5) RETURNING ${QUEUED_COLUMNS}`;

/** Names the blobs (sha256s $2) that queued message $1's photos use, so blob collection keeps them. */
export const ENQUEUE_BLOBS = `INSERT INTO queued_message_blobs (queued_id, sha256)
  SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`;

/** What waits in conversation $1's queue, oldest first. Returns QueuedRow. */
export const WAITING = `SELECT ${QUEUED_COLUMNS} FROM queued_messages WHERE conversation_id = $1 ORDER BY seq`;

/**
 * Removes queued message $2 of conversation $1. Returns `{ id }`, or none when it no longer waits:
 * the delete is conditional, so a take and a withdrawal of one message cannot both succeed.
 */
export const DEQUEUE = `DELETE FROM queued_messages WHERE conversation_id = $1 AND id = $2 RETURNING id`;
