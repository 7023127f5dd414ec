import {
  err,
  ok,
  type AdminReflogEntry,
  type ReflogAction,
  type ReflogEntry,
  type Result,
} from '@sweatpants/domain';
import { toReflogEntry } from './rows';
import {
  CONVERSATION_EXISTS,
  HEAD_REFLOG_PAGE,
  REFLOG_ACROSS,
  REFLOG_ENTRY,
  type AdminReflogRow,
  type ReflogRow,
} from './sql';
import type { SqlExecutor } from './sql-client';
import { invalid, notFound, type StoreError } from './store-error';
import { isConversationId } from './tree-reader';

export interface ReflogPage<E extends ReflogEntry = ReflogEntry> {
  entries: E[];
  /** pass as `before` for the next (older) page; null when there is none */
  next: string | null;
}

export interface AdminReflogFilter {
  ownerId?: string;
  conversationId?: string;
  action?: ReflogAction;
  since?: string;
  until?: string;
  before?: string;
  limit: number;
}

const CURSOR = /^\d{1,18}$/;
const badCursor = () =>
  err(invalid('bad cursor', [{ field: 'before', message: 'not a cursor this api gave out' }]));

/** Reads of the reflog: one conversation's HEAD moves, or everyone's for the audit. */
export class ReflogReader {
  constructor(private readonly db: SqlExecutor) {}

  /** A conversation's HEAD moves, newest first, a page at a time; each page costs the same. */
  async page(
    conversationId: string,
    page: { before?: string; limit: number },
  ): Promise<Result<ReflogPage, StoreError>> {
    if (!isConversationId(conversationId)) return err(notFound('no such conversation'));
    if (page.before !== undefined && !CURSOR.test(page.before)) return badCursor();
    const rows = await this.db.query<ReflogRow>(HEAD_REFLOG_PAGE, [
      conversationId,
      page.before ?? null,
      page.limit + 1,
    ]);
    if (rows.length === 0 && page.before === undefined) {
      const [exists] = await this.db.query(CONVERSATION_EXISTS, [conversationId]);
      if (!exists) return err(notFound('no such conversation'));
    }
    const more = rows.length > page.limit;
    const entries = (more ? rows.slice(0, page.limit) : rows).map(toReflogEntry);
    const last = more ? rows[page.limit - 1] : undefined;
    return ok({ entries, next: last ? String(last.seq) : null });
  }

  /** One entry of a conversation's reflog, by id. */
  async entry(conversationId: string, reflogId: string): Promise<ReflogEntry | null> {
    if (!isConversationId(conversationId) || !CURSOR.test(reflogId)) return null;
    const [row] = await this.db.query<ReflogRow>(REFLOG_ENTRY, [reflogId, conversationId]);
    return row ? toReflogEntry(row) : null;
  }

  /** Every conversation's moves, newest first, filtered by owner, conversation, action and time. */
  async across(filter: AdminReflogFilter): Promise<Result<ReflogPage<AdminReflogEntry>, StoreError>> {
    if (filter.before !== undefined && !CURSOR.test(filter.before)) return badCursor();
    if (filter.conversationId !== undefined && !isConversationId(filter.conversationId)) {
      return ok({ entries: [], next: null });
    }
    const rows = await this.db.query<AdminReflogRow>(REFLOG_ACROSS, [
      filter.ownerId ?? null,
      filter.conversationId ?? null,
      filter.action ?? null,
      filter.since ?? null,
      filter.until ?? null,
      filter.before ?? null,
      filter.limit + 1,
    ]);
    const more = rows.length > filter.limit;
    const page = more ? rows.slice(0, filter.limit) : rows;
    return ok({
      entries: page.map((row) => ({
        ...toReflogEntry(row),
        conversationId: row.conversation_id,
        ownerId: row.owner_id,
      })),
      next: more ? String(page.at(-1)?.id) : null,
    });
  }
}
