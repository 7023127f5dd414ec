import type { AgentName, ConversationRecord } from '@sweatpants/domain';
import { iso } from './rows';
import type { SqlExecutor } from './sql-client';
import { isConversationId } from './tree-reader';

interface ConversationRow {
  id: string;
  agent: string;
  title: string;
  owner_id: string;
  head: string;
  created_at: Date;
  updated_at: Date;
  archived_at: Date | null;
}

const COLUMNS = `c.id, c.agent, c.title, c.owner_id, encode(r.node_id, 'hex') AS head,
  c.created_at, c.updated_at, c.archived_at`;

function toConversation(row: ConversationRow): ConversationRecord {
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

/** Reads of conversation records: one by id, or a page of one owner's (or everyone's). */
export class ConversationReader {
  constructor(private readonly db: SqlExecutor) {}

  /** One conversation, archived or not. */
  async get(conversationId: string): Promise<ConversationRecord | null> {
    if (!isConversationId(conversationId)) return null;
    const [row] = await this.db.query<ConversationRow>(
      `SELECT ${COLUMNS} FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
       WHERE c.id = $1`,
      [conversationId],
    );
    return row ? toConversation(row) : null;
  }

  /** Newest first. `ownerId` narrows to one owner; archived ones are left out unless asked for. */
  async list(query: {
    ownerId?: string;
    includeArchived?: boolean;
    before?: string;
    limit: number;
  }): Promise<{ items: ConversationRecord[]; next: string | null }> {
    const before = query.before && isConversationId(query.before) ? query.before : null;
    const rows = await this.db.query<ConversationRow>(
      `SELECT ${COLUMNS} FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
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
}
