import { randomBytes } from 'node:crypto';
import type { Photo, QueuedMessage } from '@sweatpants/domain';
import { iso } from './rows';
import type { SqlClient } from './sql-client';
import { isConversationId } from './tree-reader';

/** A row of `queued_messages` as it is read. */
interface QueuedRow {
  id: string;
  text: string;
  photos: Photo[] | null;
  author_id: string;
  created_at: Date | string;
}

const COLUMNS = 'id, text, photos, author_id, created_at';

const INSERT = `INSERT INTO queued_messages (id, conversation_id, text, photos, author_id)
  VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`;
const INSERT_BLOBS = `INSERT INTO queued_message_blobs (queued_id, sha256)
  SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`;
const WAITING = `SELECT ${COLUMNS} FROM queued_messages WHERE conversation_id = $1 ORDER BY seq`;
const REMOVE = `DELETE FROM queued_messages WHERE conversation_id = $1 AND id = $2 RETURNING id`;

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
      const [written] = await tx.query<QueuedRow>(INSERT, [
        id,
        input.conversationId,
        input.text,
        photos === null ? null : JSON.stringify(photos),
        input.authorId,
      ]);
      if (photos) await tx.query(INSERT_BLOBS, [id, photos.map((p) => p.sha256)]);
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
    return (await this.db.query(REMOVE, [conversationId, id])).length > 0;
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
