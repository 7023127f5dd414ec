import { Inject, Injectable } from '@nestjs/common';
import type { ConversationRecord } from '@sweatpants/domain';
import { TreeStore, type SqlClient } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { SQL_CLIENT } from '../database/database.module';
import { ApiError } from '../errors/api-error';

/**
 * Who may touch a conversation: its owner, while it is not archived. Anything else is a 404, the
 * same answer as for an id that does not exist (PROTOCOL.md), so ids cannot be probed. Admins read
 * anyone's through the admin routes, never these. Archiving (DELETE) is the gate this class keeps,
 * so taking it back (unarchive) is here too.
 */
@Injectable()
export class ConversationAccess {
  constructor(
    private readonly store: TreeStore,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  async owned(user: AuthUser, conversationId: string): Promise<ConversationRecord> {
    const record = await this.ownedArchivedOrNot(user, conversationId);
    if (record.archivedAt !== null) throw new ApiError('not_found', 'no such conversation');
    return record;
  }

  /** One of the caller's, archived or not: what unarchive may take back. */
  async ownedArchivedOrNot(user: AuthUser, conversationId: string): Promise<ConversationRecord> {
    const record = await this.store.conversation(conversationId);
    if (!record || record.ownerId !== user.id) throw new ApiError('not_found', 'no such conversation');
    return record;
  }

  /**
   * The owner takes an archived conversation back into their list. Only `archived_at` changes:
   * its tree, HEAD and last activity are as they were (archiving deleted nothing), so it returns
   * to where its last activity puts it. A conversation that is not archived is answered as it is.
   */
  async unarchive(user: AuthUser, conversationId: string): Promise<ConversationRecord> {
    const record = await this.ownedArchivedOrNot(user, conversationId);
    if (record.archivedAt === null) return record;
    // The owner in the WHERE too: an account deleted in between leaves nothing to bring back.
    await this.db.query(`UPDATE conversations SET archived_at = NULL WHERE id = $1 AND owner_id = $2`, [
      record.id,
      user.id,
    ]);
    return this.owned(user, conversationId);
  }

  /** Any conversation, archived or not, for admin inspection. */
  async any(conversationId: string): Promise<ConversationRecord> {
    const record = await this.store.conversation(conversationId);
    if (!record) throw new ApiError('not_found', 'no such conversation');
    return record;
  }
}
