import {
  err,
  ok,
  type AgentName,
  type ConversationRecord,
  type ConversationUsage,
  type Result,
} from '@sweatpants/domain';
import { iso } from './rows';
import type { SqlExecutor } from './sql-client';
import { invalid, type StoreError } from './store-error';
import { isConversationId } from './tree-reader';

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

export function toConversation(row: ConversationRow): ConversationRecord {
  return {
    id: row.id,
    agent: row.agent as AgentName,
    title: row.title,
    ownerId: row.owner_id,
    head: row.head,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    archivedAt: row.archived_at ? iso(row.archived_at) : null,
  };
}

export interface ConversationPage {
  items: ConversationRecord[];
  /** the `before` of the next page: the last item's id, or null on the last page */
  next: string | null;
}

/** `text` as a LIKE pattern that matches it anywhere, its own wildcards (and the escape) taken literally. */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** Reads of conversation records: one by id, or a page of one owner's (or everyone's). */
export class ConversationReader {
  constructor(private readonly db: SqlExecutor) {}

  /** One conversation, archived or not. */
  async get(conversationId: string): Promise<ConversationRecord | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
       WHERE c.id = $1`,
      [conversationId],
    );
    return row ? toConversation(row) : null;
  }

  /** Its model calls' token usage, summed over every assistant node of every branch. */
  async usage(conversationId: string): Promise<ConversationUsage | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<{ [K in keyof ConversationUsage]: string }>(
      `SELECT count(n.id) AS "calls",
              coalesce(sum((n.payload->'usage'->>'inputTokens')::bigint), 0) AS "inputTokens",
              coalesce(sum((n.payload->'usage'->>'cacheWriteTokens')::bigint), 0) AS "cacheWriteTokens",
              coalesce(sum((n.payload->'usage'->>'cacheReadTokens')::bigint), 0) AS "cacheReadTokens",
              coalesce(sum((n.payload->'usage'->>'outputTokens')::bigint), 0) AS "outputTokens"
       FROM conversations c LEFT JOIN nodes n ON n.conversation_id = c.id AND n.kind = 'assistant'
       WHERE c.id = $1 GROUP BY c.id`,
      [conversationId],
    );
    if (!row) return null;
    return {
      calls: Number(row.calls),
      inputTokens: Number(row.inputTokens),
      cacheWriteTokens: Number(row.cacheWriteTokens),
      cacheReadTokens: Number(row.cacheReadTokens),
      outputTokens: Number(row.outputTokens),
    };
  }

  /** Newest created first. `ownerId` narrows to one owner; archived ones are left out unless asked for. */
  async list(query: {
    ownerId?: string;
    includeArchived?: boolean;
    before?: string;
    limit: number;
  }): Promise<{ items: ConversationRecord[]; next: string | null }> {
    const before = query.before && isConversationId(query.before) ? query.before : null;
    const rows = await this.db.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
       WHERE ($1::text IS NULL OR c.owner_id = $1)
         AND ($2 OR c.archived_at IS NULL)
         AND ($3::uuid IS NULL OR (c.created_at, c.id) < (SELECT created_at, id FROM conversations WHERE id = $3))
       ORDER BY c.created_at DESC, c.id DESC LIMIT $4`,
      [query.ownerId ?? null, query.includeArchived ?? false, before, query.limit + 1],
    );
    const more = rows.length > query.limit;
    const items = (more ? rows.slice(0, query.limit) : rows).map(toConversation);
    return { items, next: more ? (items.at(-1)?.id ?? null) : null };
  }

  /**
   * One owner's conversations by last activity (`updated_at`, which every move of HEAD bumps), most
   * recent first, archived ones left out; `q` keeps those whose title holds it, whatever its case.
   * `before` is the id of the previous page's last item (keyset on (updated_at, id)); one that is
   * not a conversation of this owner is refused, so a stale or foreign cursor never reads as the end.
   */
  async recent(query: {
    ownerId: string;
    q?: string;
    before?: string;
    limit: number;
  }): Promise<Result<ConversationPage, StoreError>> {
    const cursor = await this.cursor(query.ownerId, query.before, null);
    if (!cursor.ok) return cursor;
    // `archived_at IS NULL` as written matches the partial index conversations_owner_activity_idx.
    const rows = await this.db.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations c
         JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
       WHERE c.owner_id = $1 AND c.archived_at IS NULL
         AND ($2::text IS NULL OR c.title ILIKE $2 ESCAPE '\\')
         AND ($3::uuid IS NULL OR (c.updated_at, c.id) < (SELECT updated_at, id FROM conversations WHERE id = $3))
       ORDER BY c.updated_at DESC, c.id DESC LIMIT $4`,
      [query.ownerId, query.q ? containsPattern(query.q) : null, cursor.value, query.limit + 1],
    );
    return ok(page(rows, query.limit));
  }

  /**
   * One owner's archived conversations, most recently archived first (what they put away last is
   * what they look for first), `q` matching titles as `recent` does; keyset on (archived_at, id).
   * A `before` that is not one of their archived conversations is refused, as `recent` refuses one.
   */
  async archived(query: {
    ownerId: string;
    q?: string;
    before?: string;
    limit: number;
  }): Promise<Result<ConversationPage, StoreError>> {
    const cursor = await this.cursor(query.ownerId, query.before, true);
    if (!cursor.ok) return cursor;
    const rows = await this.db.query<ConversationRow>(
      `SELECT ${CONVERSATION_COLUMNS} FROM conversations c
         JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
       WHERE c.owner_id = $1 AND c.archived_at IS NOT NULL
         AND ($2::text IS NULL OR c.title ILIKE $2 ESCAPE '\\')
         AND ($3::uuid IS NULL OR (c.archived_at, c.id) < (SELECT archived_at, id FROM conversations WHERE id = $3))
       ORDER BY c.archived_at DESC, c.id DESC LIMIT $4`,
      [query.ownerId, query.q ? containsPattern(query.q) : null, cursor.value, query.limit + 1],
    );
    return ok(page(rows, query.limit));
  }

  /**
   * A page's `before`, checked to be one of the owner's conversations: an archived one when
   * `archived`, any of theirs when null (a live list's item may have been archived since).
   */
  private async cursor(
    ownerId: string,
    before: string | undefined,
    archived: boolean | null,
  ): Promise<Result<string | null, StoreError>> {
    if (before === undefined) return ok(null);
    const [found] = isConversationId(before)
      ? await this.db.query(
          `SELECT 1 FROM conversations
           WHERE id = $1 AND owner_id = $2 AND ($3::boolean IS NULL OR (archived_at IS NOT NULL) = $3)`,
          [before, ownerId, archived],
        )
      : [];
    if (found) return ok(before);
    const which = archived ? 'your archived conversations' : 'your conversations';
    return err(invalid('no such cursor', [{ field: 'before', message: `is not one of ${which}` }]));
  }
}

/** A page of `limit` from `rows` (one more than a page was asked for, to know whether more follow). */
function page(rows: ConversationRow[], limit: number): ConversationPage {
  const more = rows.length > limit;
  const items = (more ? rows.slice(0, limit) : rows).map(toConversation);
  return { items, next: more ? (items.at(-1)?.id ?? null) : null };
}
