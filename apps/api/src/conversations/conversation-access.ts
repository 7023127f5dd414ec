import { Injectable } from '@nestjs/common';
import type { ConversationRecord } from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { ApiError } from '../errors/api-error';

/**
 * Who may touch a conversation: its owner, while it is not archived. Anything else is a 404, the
 * same answer as for an id that does not exist (PROTOCOL.md), so ids cannot be probed. Admins read
 * anyone's through the admin routes, never these.
 */
@Injectable()
export class ConversationAccess {
  constructor(private readonly store: TreeStore) {}

  async owned(user: AuthUser, conversationId: string): Promise<ConversationRecord> {
    const record = await this.store.conversation(conversationId);
    if (!record || record.ownerId !== user.id || record.archivedAt !== null) {
      throw new ApiError('not_found', 'no such conversation');
    }
    return record;
  }

  /** Any conversation, archived or not, for admin inspection. */
  async any(conversationId: string): Promise<ConversationRecord> {
    const record = await this.store.conversation(conversationId);
    if (!record) throw new ApiError('not_found', 'no such conversation');
    return record;
  }
}
