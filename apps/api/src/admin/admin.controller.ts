import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT, type ReflogEntry } from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import { AdminOnly } from '../auth/auth.decorators';
import { unwrap } from '../conversations/api-errors';
import { ConversationAccess } from '../conversations/conversation-access';
import { ConversationActors } from '../conversations/conversation-actors';
import { ConversationReads } from '../conversations/conversation-reads';
import { ApiError } from '../errors/api-error';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { turnWaterfalls } from './turn-waterfalls';

const {
  adminReflog,
  adminConversations,
  adminConversation,
  adminPath,
  adminState,
  adminConversationReflog,
  adminTree,
  adminUsage,
  adminTurns,
  fsck,
} = HTTP_CONTRACT;

/** The reflog is read a page at a time for a turn's writes, up to this many entries (the newest). */
const REFLOG_PAGE = 500;
const REFLOG_PAGES = 20;

/**
 * PROTOCOL.md, Admin: the audit across users and read-only inspection of anyone's conversation,
 * archived ones included. Role `admin` only; everyone else gets a 403.
 */
@AdminOnly()
@Controller()
export class AdminController {
  constructor(
    private readonly store: TreeStore,
    private readonly access: ConversationAccess,
    private readonly reads: ConversationReads,
    private readonly actors: ConversationActors,
  ) {}

  @Endpoint(adminReflog)
  async reflog(@Input() { query }: EndpointInput<typeof adminReflog>): EndpointResult<typeof adminReflog> {
    const { userId, ...filter } = query;
    return unwrap(
      await this.store.adminReflog({ ...filter, ...(userId !== undefined ? { ownerId: userId } : {}) }),
    );
  }

  @Endpoint(adminConversations)
  async conversations(
    @Input() { query }: EndpointInput<typeof adminConversations>,
  ): EndpointResult<typeof adminConversations> {
    const page = await this.store.listConversations({
      ...(query.userId !== undefined ? { ownerId: query.userId } : {}),
      includeArchived: true,
      ...(query.before !== undefined ? { before: query.before } : {}),
      limit: query.limit,
    });
    return { items: page.items.map((r) => this.actors.listed(r)), next: page.next };
  }

  /** Any conversation, archived or not, as a listing shows it: no runner is opened to read it. */
  @Endpoint(adminConversation)
  async conversation(
    @Input() { params }: EndpointInput<typeof adminConversation>,
  ): EndpointResult<typeof adminConversation> {
    return this.actors.listed(await this.access.any(params.id));
  }

  @Endpoint(adminPath)
  async path(@Input() { params, query }: EndpointInput<typeof adminPath>): EndpointResult<typeof adminPath> {
    return this.reads.path(await this.access.any(params.id), query.at);
  }

  /**
   * The agent's state at a ref, as its owner's state route folds it: the admin's read-only view
   * shows the same panel the owner sees (it showed "No state yet" with no route to read it from).
   */
  @Endpoint(adminState)
  async state(
    @Input() { params, query }: EndpointInput<typeof adminState>,
  ): EndpointResult<typeof adminState> {
    return this.reads.state(await this.access.any(params.id), query.at);
  }

  @Endpoint(adminConversationReflog)
  async conversationReflog(
    @Input() { params, query }: EndpointInput<typeof adminConversationReflog>,
  ): EndpointResult<typeof adminConversationReflog> {
    return this.reads.reflog(await this.access.any(params.id), query);
  }

  @Endpoint(adminTree)
  async tree(@Input() { params, query }: EndpointInput<typeof adminTree>): EndpointResult<typeof adminTree> {
    return this.reads.tree(await this.access.any(params.id), query);
  }

  /** What the conversation's model calls cost, in tokens, over every branch (issue 19). */
  @Endpoint(adminUsage)
  async usage(@Input() { params }: EndpointInput<typeof adminUsage>): EndpointResult<typeof adminUsage> {
    const usage = await this.store.usage((await this.access.any(params.id)).id);
    if (!usage) throw new ApiError('not_found', 'no such conversation');
    return usage;
  }

  /**
   * The HEAD path's turns as waterfalls, from the nodes and the reflog's record of each write:
   * computed here, so the web client only draws them.
   */
  @Endpoint(adminTurns)
  async turns(@Input() { params }: EndpointInput<typeof adminTurns>): EndpointResult<typeof adminTurns> {
    const record = await this.access.any(params.id);
    const { nodes } = await this.reads.path(record, 'HEAD');
    const entries: ReflogEntry[] = [];
    let before: string | undefined;
    for (let page = 0; page < REFLOG_PAGES; page++) {
      const read = await this.reads.reflog(record, { limit: REFLOG_PAGE, ...(before ? { before } : {}) });
      entries.push(...read.entries);
      if (!read.next) break;
      before = read.next;
    }
    return turnWaterfalls(nodes, entries);
  }

  /** Verifies the hash chain, depths, segments and reflog continuity of one conversation. */
  @Endpoint(fsck)
  async fsck(@Input() { params }: EndpointInput<typeof fsck>): EndpointResult<typeof fsck> {
    const report = await this.store.fsck(params.conversationId);
    if (!report) throw new ApiError('not_found', 'no such conversation');
    return {
      ok: report.ok,
      checked: report.checked,
      problems: report.problems.map((p) => ({
        ...(p.nodeId !== undefined ? { nodeId: p.nodeId } : {}),
        problem: `${p.code}: ${p.message}`,
      })),
    };
  }
}
