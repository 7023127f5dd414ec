import type { ConversationUsage } from '@sweatpants/domain';

// Conversation records (`conversations`, with the node their HEAD ref points at), with the row
// each statement returns beside it.

/** A conversation as the store's queries select it (CONVERSATION_COLUMNS). */
export interface ConversationRow {
  id: string;
  agent: string;
  title: string;
  owner_id: string;
  head: string;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

/** The select list that produces a ConversationRow from `conversations c` joined to its HEAD `refs r`. */
export const CONVERSATION_COLUMNS = `c.id, c.agent, c.title, c.owner_id, encode(r.node_id, 'hex') AS head,
  c.created_at, c.updated_at, c.archived_at`;

/** Conversation $1, archived or not. Returns ConversationRow. */
export const CONVERSATION_BY_ID = `SELECT ${CONVERSATION_COLUMNS} FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
  WHERE c.id = $1`;

/** Whether conversation $1 exists: a row (`SELECT 1`) or none. */
export const CONVERSATION_EXISTS = `SELECT 1 FROM conversations WHERE id = $1`;

/** Every conversation's id, in order (what gc walks). */
export interface ConversationIdRow {
  id: string;
}

/** Every conversation's id. Returns ConversationIdRow. */
export const ALL_CONVERSATION_IDS = `SELECT id FROM conversations ORDER BY id`;

/** Token usage sums, as the text PostgreSQL gives bigints in. */
export type UsageRow = { [K in keyof ConversationUsage]: string };

/**
 * Conversation $1's model calls and their token usage, summed over every assistant node of every
 * branch (zeros when it has none, no row when there is no such conversation). Returns UsageRow.
 */
export const CONVERSATION_USAGE = `SELECT count(n.id) AS "calls",
         coalesce(sum((n.payload->'usage'->>'inputTokens')::bigint), 0) AS "inputTokens",
         coalesce(sum((n.payload->'usage'->>'cacheWriteTokens')::bigint), 0) AS "cacheWriteTokens",
         coalesce(sum((n.payload->'usage'->>'cacheReadTokens')::bigint), 0) AS "cacheReadTokens",
         coalesce(sum((n.payload->'usage'->>'outputTokens')::bigint), 0) AS "outputTokens"
  FROM conversations c LEFT JOIN nodes n ON n.conversation_id = c.id AND n.kind = 'assistant'
  WHERE c.id = $1 GROUP BY c.id`;

/**
 * A page of conversations, newest created first: owner $1 (null: everyone's), archived ones too
 * when $2, after the conversation $3 (null: from the start; keyset on (created_at, id)), at most
 * $4. Returns ConversationRow.
 */
export const CONVERSATIONS_BY_CREATION = `SELECT ${CONVERSATION_COLUMNS} FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
  WHERE ($1::text IS NULL OR c.owner_id = $1)
    AND ($2 OR c.archived_at IS NULL)
    AND ($3::uuid IS NULL OR (c.created_at, c.id) < (SELECT created_at, id FROM conversations WHERE id = $3))
  ORDER BY c.created_at DESC, c.id DESC LIMIT $4`;

/**
 * A page of owner $1's live conversations by last activity, most recent first: titles matching
 * the ILIKE pattern $2 (null: all), after the conversation $3 (keyset on (updated_at, id)), at most
 * $4. Returns ConversationRow. `archived_at IS NULL` as written matches the partial index
 * conversations_owner_activity_idx.
 */
export const RECENT_CONVERSATIONS = `SELECT ${CONVERSATION_COLUMNS} FROM conversations c
    JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
  WHERE c.owner_id = $1 AND c.archived_at IS NULL
    AND ($2::text IS NULL OR c.title ILIKE $2 ESCAPE '\\')
    AND ($3::uuid IS NULL OR (c.updated_at, c.id) < (SELECT updated_at, id FROM conversations WHERE id = $3))
  ORDER BY c.updated_at DESC, c.id DESC LIMIT $4`;

/**
 * A page of owner $1's archived conversations, most recently archived first, `$2` and `$3` as in
 * RECENT_CONVERSATIONS (keyset on (archived_at, id)), at most $4. Returns ConversationRow.
 */
export const ARCHIVED_CONVERSATIONS = `SELECT ${CONVERSATION_COLUMNS} FROM conversations c
    JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
  WHERE c.owner_id = $1 AND c.archived_at IS NOT NULL
    AND ($2::text IS NULL OR c.title ILIKE $2 ESCAPE '\\')
    AND ($3::uuid IS NULL OR (c.archived_at, c.id) < (SELECT archived_at, id FROM conversations WHERE id = $3))
  ORDER BY c.archived_at DESC, c.id DESC LIMIT $4`;

/**
 * Whether $1 is a conversation of owner $2 that a page may start after: an archived one when $3,
 * a live one when not $3, any of theirs when $3 is null. A row (`SELECT 1`) or none.
 */
export const OWNED_CURSOR = `SELECT 1 FROM conversations
  WHERE id = $1 AND owner_id = $2 AND ($3::boolean IS NULL OR (archived_at IS NOT NULL) = $3)`;

/**
 * Locks HEAD's ref row of live conversation $1 (`FOR UPDATE OF r`), keeping every other writer out
 * until the transaction commits: a row (`SELECT 1`), or none when there is no such live conversation.
 */
export const LOCK_LIVE_HEAD = `SELECT 1 FROM refs r JOIN conversations c ON c.id = r.conversation_id
  WHERE r.conversation_id = $1 AND r.name = 'HEAD' AND c.archived_at IS NULL FOR UPDATE OF r`;

/** Renames live conversation $1 to $2. Returns the renamed ConversationRow, or none. */
export const RENAME_CONVERSATION = `UPDATE conversations c SET title = $2 FROM refs r
  WHERE c.id = $1 AND c.archived_at IS NULL AND r.conversation_id = c.id AND r.name = 'HEAD'
  RETURNING ${CONVERSATION_COLUMNS}`;

/**
 * Titles live conversation $1 with $2 only while it is untitled, in one conditional statement, so
 * a title a rename (or another first message) set first stays. Returns `{ id }`, or none.
 */
export const TITLE_IF_UNTITLED = `UPDATE conversations SET title = $2 WHERE id = $1 AND title = '' AND archived_at IS NULL RETURNING id`;

/** Archives live conversation $1. Returns `{ id }`, or none when it was not live. */
export const ARCHIVE_CONVERSATION = `UPDATE conversations SET archived_at = clock_timestamp() WHERE id = $1 AND archived_at IS NULL RETURNING id`;
