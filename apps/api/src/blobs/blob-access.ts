import { Inject, Injectable } from '@nestjs/common';
import type { SqlClient } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { SQL_CLIENT } from '../database/database.module';

/**
 * Who may read a blob: whoever may read a node that names it (DESIGN.md, Blobs). For its owner,
 * a node of one of their conversations that is not archived (as ConversationAccess.owned); for an
 * admin, a node of any conversation, since an admin may inspect any. One index range scan on
 * `node_blobs` (by sha-256) joined to the conversation.
 */
@Injectable()
export class BlobAccess {
  constructor(@Inject(SQL_CLIENT) private readonly db: SqlClient) {}

  async mayRead(user: AuthUser, sha256: string): Promise<boolean> {
    const rows =
      user.role === 'admin'
        ? await this.db.query(`SELECT 1 FROM node_blobs WHERE sha256 = $1 LIMIT 1`, [sha256])
        : await this.db.query(
            `SELECT 1 FROM node_blobs nb JOIN conversations c ON c.id = nb.conversation_id
             WHERE nb.sha256 = $1 AND c.owner_id = $2 AND c.archived_at IS NULL LIMIT 1`,
            [sha256, user.id],
          );
    return rows.length > 0;
  }
}
