import { randomBytes } from 'node:crypto';
import type { Photo, QueuedMessage } from '@sweatpants/domain';
import { iso } from './rows';
import { DEQUEUE, ENQUEUE, ENQUEUE_BLOBS, WAITING, type QueuedRow } from './sql';
import type { SqlClient } from './sql-client';
import { isConversationId } from './tree-reader';

/**
 * Messages sent while the agent works, beside the tree (QueuedMessages1795510000000): written at
 * once, read in the order they came, removed when the agent takes one or the person withdraws it.
 * The conversation's runner is the one writer that takes; `remove` is conditional, so a take and a
 * withdrawal of one message cannot both succeed.
 */
export class MessageQueue {
  constructor(private readonly db: SqlClient) {}

  /** Stores a message at the end of the conversation's queue, its photos named for blob collection. */
  async enqueue(input: {
    conversationId: string;
    text: string;
    photos?: readonly Photo[];
    authorId: string;
  }): Promise<QueuedMessage> {
    const id = randomBytes(32).toString('hex');
    const photos = input.photos?.length ? input.photos : null;
    const row = await this.db.transaction(async (tx) => {
      const [written] = await tx.query<QueuedRow>(ENQUEUE, [
        id,
        input.conversationId,
        input.text,
        photos === null ? null : JSON.stringify(photos),
        input.authorId,
      ]);
      if (photos) await tx.query(ENQUEUE_BLOBS, [id, photos.map((p) => p.sha256)]);
      return written as QueuedRow;
    });
    return toQueued(row);
  }

  /** What waits in the conversation's queue, oldest first. */
  async waiting(conversationId: string): Promise<QueuedMessage[]> {
    if (!isConversationId(conversationId)) return [];
    return (await this.db.query<QueuedRow>(WAITING, [conversationId])).map(toQueued);
  }

  /** Removes a waiting message (taken or withdrawn); false when it no longer waits. */
  async remove(conversationId: string, id: string): Promise<boolean> {
    if (!isConversationId(conversationId)) return false;
    return (await this.db.query(DEQUEUE, [conversationId, id])).length > 0;
  }
}

function toQueued(row: QueuedRow): QueuedMessage {
  return {
    id: row.id,
    text: row.text,
    ...(row.photos?.length ? { photos: row.photos } : {}),
    authorId: row.author_id,
    createdAt: iso(row.created_at),
  };
}
