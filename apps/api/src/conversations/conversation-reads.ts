import { Injectable } from '@nestjs/common';
import type {
  ConversationRecord,
  NodeResponse,
  PathResponse,
  ReflogPage,
  StateResponse,
  TreePage,
} from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import { AgentRegistry } from '../agents/agent-registry';
import { ApiError } from '../errors/api-error';
import { unwrap } from './api-errors';

/**
 * The read-only views of a conversation, for its owner and for admin inspection alike: they take
 * a record whose access the caller has already checked.
 */
@Injectable()
export class ConversationReads {
  constructor(
    private readonly store: TreeStore,
    private readonly agents: AgentRegistry,
  ) {}

  /** One owner's archived conversations, most recently archived first (a stale `before` is a 400). */
  async archived(
    ownerId: string,
    query: { q?: string | undefined; before?: string | undefined; limit: number },
  ): Promise<{ items: ConversationRecord[]; next: string | null }> {
    return unwrap(
      await this.store.archivedConversations({
        ownerId,
        limit: query.limit,
        ...(query.q ? { q: query.q } : {}),
        ...(query.before !== undefined ? { before: query.before } : {}),
      }),
    );
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
