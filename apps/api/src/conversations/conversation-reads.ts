import { Inject, Injectable } from '@nestjs/common';
import type {
  AgentName,
  ConversationRecord,
  NodeResponse,
  PathResponse,
  ReflogPage,
  StateResponse,
  TreePage,
} from '@sweatpants/domain';
import { TreeStore, type SqlClient } from '@sweatpants/tree-store';
import { AgentRegistry } from '../agents/agent-registry';
import { SQL_CLIENT } from '../database/database.module';
import { ApiError } from '../errors/api-error';
import { unwrap } from './api-errors';

/** A conversation row as `archived` selects it. */
interface ArchivedRow {
  id: string;
  agent: string;
  title: string;
  owner_id: string;
  head: string;
  created_at: Date;
  updated_at: Date;
  archived_at: Date;
}

/** `text` as a LIKE pattern that matches it anywhere, its own wildcards (and the escape) taken literally. */
const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The read-only views of a conversation, for its owner and for admin inspection alike: they take
 * a record whose access the caller has already checked.
 */
@Injectable()
export class ConversationReads {
  constructor(
    private readonly store: TreeStore,
    private readonly agents: AgentRegistry,
    @Inject(SQL_CLIENT) private readonly db: SqlClient,
  ) {}

  /**
   * One owner's archived conversations, most recently archived first (what they put away last is
   * what they look for first), `q` matching titles as the default list does. `before` is the id of
   * the previous page's last item, keyset on (archived_at, id); one that is not an archived
   * conversation of theirs is a 400, so a stale cursor never reads as the end of the list.
   */
  async archived(
    ownerId: string,
    query: { q?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<{ items: ConversationRecord[]; next: string | null }> {
    const before = query.before ?? null;
    if (before !== null) {
      const [cursor] = UUID.test(before)
        ? await this.db.query(
            `SELECT 1 FROM conversations WHERE id = $1 AND owner_id = $2 AND archived_at IS NOT NULL`,
            [before, ownerId],
          )
        : [];
      if (!cursor) {
        throw new ApiError('invalid_request', 'no such cursor', [
          { field: 'before', message: 'is not one of your archived conversations' },
        ]);
      }
    }
    const rows = await this.db.query<ArchivedRow>(
      `SELECT c.id, c.agent, c.title, c.owner_id, encode(r.node_id, 'hex') AS head,
              c.created_at, c.updated_at, c.archived_at
       FROM conversations c JOIN refs r ON r.conversation_id = c.id AND r.name = 'HEAD'
       WHERE c.owner_id = $1 AND c.archived_at IS NOT NULL
         AND ($2::text IS NULL OR c.title ILIKE $2 ESCAPE '\\')
         AND ($3::uuid IS NULL OR (c.archived_at, c.id) < (SELECT archived_at, id FROM conversations WHERE id = $3))
       ORDER BY c.archived_at DESC, c.id DESC LIMIT $4`,
      [ownerId, query.q ? containsPattern(query.q) : null, before, query.limit + 1],
    );
    const more = rows.length > query.limit;
    const items = (more ? rows.slice(0, query.limit) : rows).map((row): ConversationRecord => ({
      id: row.id,
      agent: row.agent as AgentName,
      title: row.title,
      ownerId: row.owner_id,
      head: row.head,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
      archivedAt: row.archived_at.toISOString(),
    }));
    return { items, next: more ? (items.at(-1)?.id ?? null) : null };
  }

  async path(record: ConversationRecord, at: string): Promise<PathResponse> {
    return { nodes: unwrap(await this.store.path(record.id, at), 'at') };
  }

  /** The agent's state at `at`, folded from the path with the agent's reducer (snapshots cached). */
  async state(record: ConversationRecord, at: string): Promise<StateResponse> {
    const reducer = this.agents.get(record.agent).definition.state;
    const folded = unwrap(await this.store.stateAt(record.id, at, reducer), 'at');
    return { at: folded.at, agent: record.agent, state: folded.state };
  }

  async tree(
    record: ConversationRecord,
    page: { after?: string | undefined; limit: number },
  ): Promise<TreePage> {
    return unwrap(await this.store.tree(record.id, page));
  }

  /** One node by any ref form (a full id, a 7+ prefix, HEAD~n, ...), with its children. */
  async node(record: ConversationRecord, ref: string): Promise<NodeResponse> {
    const position = unwrap(await this.store.resolve(record.id, ref), 'nodeId');
    const node = await this.store.node(record.id, position.id);
    if (!node) throw new ApiError('not_found', `no node ${ref} in this conversation`);
    return node;
  }

  async reflog(
    record: ConversationRecord,
    page: { before?: string | undefined; limit: number },
  ): Promise<ReflogPage> {
    return unwrap(await this.store.reflog(record.id, page));
  }
}
