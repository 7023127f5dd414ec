import type { ConversationRecord } from '@sweatpants/domain';
import { toConversation } from './conversation-reader';
import { RENAME_CONVERSATION, TITLE_IF_UNTITLED, type ConversationRow } from './sql';
import type { SqlExecutor } from './sql-client';
import { isConversationId } from './tree-reader';

/**
 * A conversation's title: the owner's rename, and the title its first words give an untitled one.
 * Neither moves HEAD, so neither touches `updated_at`: renaming does not reorder the owner's list.
 * Archived conversations keep the title they were archived with.
 */
export class ConversationTitles {
  constructor(private readonly db: SqlExecutor) {}

  /** Sets the title; the renamed record, or null when there is no such live conversation. */
  async rename(conversationId: string, title: string): Promise<ConversationRecord | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<ConversationRow>(RENAME_CONVERSATION, [conversationId, title]);
    return row ? toConversation(row) : null;
  }

  /**
   * Titles an untitled conversation, in one conditional statement: when a rename (or another
   * first message) got there first, the title it set stays. True when this title was set.
   */
  async titleIfUntitled(conversationId: string, title: string): Promise<boolean> {
    if (!isConversationId(conversationId) || title === '') return false;
    const rows = await this.db.query(TITLE_IF_UNTITLED, [conversationId, title]);
    return rows.length > 0;
  }
}
