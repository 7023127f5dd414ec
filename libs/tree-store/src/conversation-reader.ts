import {
  err,
  ok,
  type AgentName,
  type ConversationRecord,
  type ConversationUsage,
  type Result,
} from '@sweatpants/domain';
import { iso } from './rows';
import {
  ARCHIVED_CONVERSATIONS,
  CONVERSATION_BY_ID,
  CONVERSATION_USAGE,
  CONVERSATIONS_BY_CREATION,
  OWNED_CURSOR,
  RECENT_CONVERSATIONS,
  type ConversationRow,
  type UsageRow,
} from './sql';
import type { SqlExecutor } from './sql-client';
import { invalid, type StoreError } from './store-error';
import { isConversationId } from './tree-reader';

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
    const [row] = await this.db.query<ConversationRow>(CONVERSATION_BY_ID, [conversationId]);
    return row ? toConversation(row) : null;
  }

  /** Its model calls' token usage, summed over every assistant node of every branch. */
  async usage(conversationId: string): Promise<ConversationUsage | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<UsageRow>(CONVERSATION_USAGE, [conversationId]);
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
    const rows = await this.db.query<ConversationRow>(CONVERSATIONS_BY_CREATION, [
      query.ownerId ?? null,
      query.includeArchived ?? false,
      before,
      query.limit + 1,
    ]);
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
    const rows = await this.db.query<ConversationRow>(RECENT_CONVERSATIONS, [
      query.ownerId,
      query.q ? containsPattern(query.q) : null,
      cursor.value,
      query.limit + 1,
    ]);
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
    const rows = await this.db.query<ConversationRow>(ARCHIVED_CONVERSATIONS, [
      query.ownerId,
      query.q ? containsPattern(query.q) : null,
      cursor.value,
      query.limit + 1,
    ]);
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
      ? await this.db.query(OWNED_CURSOR, [before, ownerId, archived])
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
