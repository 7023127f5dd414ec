import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  AdminConversationsQuerySchema,
  AdminReflogQuerySchema,
  RefQuerySchema,
  ReflogQuerySchema,
  TreeQuerySchema,
  type AdminReflogPage,
  type AdminReflogQuery,
  type ConversationUsage,
  type FsckReport,
  type ListedConversation,
  type ListedConversationPage,
  type PathResponse,
  type ReflogPage,
  type StateResponse,
  type TreePage,
} from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type * as z from 'zod';
import { AdminOnly } from '../auth/auth.decorators';
import { unwrap } from '../conversations/api-errors';
import { ConversationAccess } from '../conversations/conversation-access';
import { ConversationReads } from '../conversations/conversation-reads';
import { ConversationViews } from '../conversations/conversation-views';
import { ApiError } from '../errors/api-error';
import { ZodPipe } from '../validation/zod.pipe';

/**
 * PROTOCOL.md, Admin: the audit across users and read-only inspection of anyone's conversation,
 * archived ones included. Role `admin` only; everyone else gets a 403.
 */
@AdminOnly()
@Controller('admin')
export class AdminController {
  constructor(
    private readonly store: TreeStore,
    private readonly access: ConversationAccess,
    private readonly reads: ConversationReads,
    private readonly views: ConversationViews,
  ) {}

  @Get('reflog')
  async reflog(
    @Query(new ZodPipe(AdminReflogQuerySchema, 'query')) query: AdminReflogQuery,
  ): Promise<AdminReflogPage> {
    const { userId, ...filter } = query;
    return unwrap(
      await this.store.adminReflog({ ...filter, ...(userId !== undefined ? { ownerId: userId } : {}) }),
    );
  }

  @Get('conversations')
  async conversations(
    @Query(new ZodPipe(AdminConversationsQuerySchema, 'query'))
    query: z.infer<typeof AdminConversationsQuerySchema>,
  ): Promise<ListedConversationPage> {
    const page = await this.store.listConversations({
      ...(query.userId !== undefined ? { ownerId: query.userId } : {}),
      includeArchived: true,
      ...(query.before !== undefined ? { before: query.before } : {}),
      limit: query.limit,
    });
    return { items: await Promise.all(page.items.map((r) => this.views.listed(r))), next: page.next };
  }

  /** Any conversation, archived or not, as a listing shows it: no runner is opened to read it. */
  @Get('conversations/:id')
  async conversation(@Param('id') id: string): Promise<ListedConversation> {
    return this.views.listed(await this.access.any(id));
  }

  @Get('conversations/:id/path')
  async path(
    @Param('id') id: string,
    @Query(new ZodPipe(RefQuerySchema, 'query')) query: z.infer<typeof RefQuerySchema>,
  ): Promise<PathResponse> {
    return this.reads.path(await this.access.any(id), query.at);
  }

  /**
   * The agent's state at a ref, as its owner's state route folds it: the admin's read-only view
   * shows the same panel the owner sees (it showed "No state yet" with no route to read it from).
   */
  @Get('conversations/:id/state')
  async state(
    @Param('id') id: string,
    @Query(new ZodPipe(RefQuerySchema, 'query')) query: z.infer<typeof RefQuerySchema>,
  ): Promise<StateResponse> {
    return this.reads.state(await this.access.any(id), query.at);
  }

  @Get('conversations/:id/reflog')
  async conversationReflog(
    @Param('id') id: string,
    @Query(new ZodPipe(ReflogQuerySchema, 'query')) query: z.infer<typeof ReflogQuerySchema>,
  ): Promise<ReflogPage> {
    return this.reads.reflog(await this.access.any(id), query);
  }

  @Get('conversations/:id/tree')
  async tree(
    @Param('id') id: string,
    @Query(new ZodPipe(TreeQuerySchema, 'query')) query: z.infer<typeof TreeQuerySchema>,
  ): Promise<TreePage> {
    return this.reads.tree(await this.access.any(id), query);
  }

  /** What the conversation's model calls cost, in tokens, over every branch (issue 19). */
  @Get('conversations/:id/usage')
  async usage(@Param('id') id: string): Promise<ConversationUsage> {
    const usage = await this.store.usage((await this.access.any(id)).id);
    if (!usage) throw new ApiError('not_found', 'no such conversation');
    return usage;
  }

  /** Verifies the hash chain, depths, segments and reflog continuity of one conversation. */
  @Get('fsck/:conversationId')
  async fsck(@Param('conversationId') conversationId: string): Promise<FsckReport> {
    const report = await this.store.fsck(conversationId);
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
