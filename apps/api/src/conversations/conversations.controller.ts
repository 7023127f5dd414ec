import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import {
  AgentNameSchema,
  ConversationListFilterSchema,
  CreateConversationRequestSchema,
  EditRequestSchema,
  ElicitResponseRequestSchema,
  ForkRequestSchema,
  RecoverRequestSchema,
  RefQuerySchema,
  ReflogQuerySchema,
  RegenerateRequestSchema,
  RenameConversationRequestSchema,
  RewindRequestSchema,
  SendMessageRequestSchema,
  TreeQuerySchema,
  type Conversation,
  type ConversationList,
  type ConversationListFilter,
  type CreateConversationRequest,
  type EditRequest,
  type ElicitResponseRequest,
  type ForkRequest,
  type HeadMove,
  type ListedConversation,
  type NodeAndHead,
  type NodeResponse,
  type PathResponse,
  type RecoverRequest,
  type ReflogPage,
  type RegenerateRequest,
  type RenameConversationRequest,
  type RewindRequest,
  type SendMessageRequest,
  type StateResponse,
  type TreePage,
} from '@sweatpants/domain';
import type * as z from 'zod';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/auth.decorators';
import { AGENT_CATALOG } from '../agents/agent-catalog.module';
import { parseOrThrow } from '../validation/field-problems';
import { ZodPipe } from '../validation/zod.pipe';
import { ConversationAccess } from './conversation-access';
import { ConversationCommands } from './conversation-commands';
import { ConversationReads } from './conversation-reads';
import { ConversationViews } from './conversation-views';
import { ConversationsService } from './conversations.service';

/** PROTOCOL.md, Conversations (the compaction routes live with the compaction jobs). */
@Controller('conversations')
export class ConversationsController {
  /** PROTOCOL.md's create request, its agent one of those registered in this deployment. */
  private readonly createRequest: z.ZodType<CreateConversationRequest>;

  constructor(
    private readonly access: ConversationAccess,
    private readonly conversations: ConversationsService,
    private readonly reads: ConversationReads,
    private readonly commands: ConversationCommands,
    private readonly views: ConversationViews,
    @Inject(AGENT_CATALOG) agents: AgentCatalog,
  ) {
    // The agent is checked with the other fields, so a 400 names every bad one at once.
    this.createRequest = CreateConversationRequestSchema.extend({
      agent: AgentNameSchema.refine((name) => agents.has(name), {
        message: `must be one of the agents at GET /api/agents: ${agents.names().join(', ')}`,
      }),
    });
  }

  @Post()
  create(@CurrentUser() user: AuthUser, @Body() body: unknown): Promise<Conversation> {
    return this.conversations.create(user, parseOrThrow(this.createRequest, body));
  }

  /** The caller's list, or with `archived=true` what they archived (to find one and unarchive it). */
  @Get()
  async list(
    @CurrentUser() user: AuthUser,
    @Query(new ZodPipe(ConversationListFilterSchema, 'query')) query: ConversationListFilter,
  ): Promise<ConversationList> {
    const { archived, ...page } = query;
    if (archived !== true) return this.conversations.list(user, page);
    const found = await this.reads.archived(user.id, page);
    return { items: await Promise.all(found.items.map((r) => this.views.listed(r))), next: found.next };
  }

  @Get(':id')
  async get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Conversation> {
    return this.commands.run(user, await this.access.owned(user, id), { kind: 'view' });
  }

  @Patch(':id')
  async rename(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(new ZodPipe(RenameConversationRequestSchema)) body: RenameConversationRequest,
  ): Promise<Conversation> {
    const renamed = await this.conversations.rename(await this.access.owned(user, id), body.title);
    return this.commands.run(user, renamed, { kind: 'view' });
  }

  @Post(':id/messages')
  async send(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(new ZodPipe(SendMessageRequestSchema)) body: SendMessageRequest,
  ): Promise<NodeAndHead> {
    return this.commands.send(user, await this.access.owned(user, id), body);
  }

  @Post(':id/elicits/:elicitId/response')
  @HttpCode(200)
  async respond(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('elicitId') elicitId: string,
    @Body(new ZodPipe(ElicitResponseRequestSchema)) body: ElicitResponseRequest,
  ): Promise<NodeAndHead> {
    return this.commands.respond(user, await this.access.owned(user, id), elicitId, body);
  }

  @Get(':id/path')
  async path(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query(new ZodPipe(RefQuerySchema, 'query')) query: z.infer<typeof RefQuerySchema>,
  ): Promise<PathResponse> {
    return this.reads.path(await this.access.owned(user, id), query.at);
  }

  @Get(':id/state')
  async state(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query(new ZodPipe(RefQuerySchema, 'query')) query: z.infer<typeof RefQuerySchema>,
  ): Promise<StateResponse> {
    return this.reads.state(await this.access.owned(user, id), query.at);
  }

  @Get(':id/tree')
  async tree(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query(new ZodPipe(TreeQuerySchema, 'query')) query: z.infer<typeof TreeQuerySchema>,
  ): Promise<TreePage> {
    return this.reads.tree(await this.access.owned(user, id), query);
  }

  @Get(':id/nodes/:nodeId')
  async node(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('nodeId') nodeId: string,
  ): Promise<NodeResponse> {
    return this.reads.node(await this.access.owned(user, id), nodeId);
  }

  @Post(':id/rewind')
  @HttpCode(200)
  async rewind(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(new ZodPipe(RewindRequestSchema)) body: RewindRequest,
  ): Promise<HeadMove> {
    return this.commands.run(user, await this.access.owned(user, id), { kind: 'rewind', ...body });
  }

  @Post(':id/nodes/:nodeId/edit')
  async edit(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('nodeId') nodeId: string,
    @Body(new ZodPipe(EditRequestSchema)) body: EditRequest,
  ): Promise<NodeAndHead> {
    return this.commands.run(user, await this.access.owned(user, id), { kind: 'edit', nodeId, ...body });
  }

  @Post(':id/nodes/:nodeId/regenerate')
  async regenerate(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('nodeId') nodeId: string,
    // Every field is optional, so a request may leave the body out altogether.
    @Body(new ZodPipe(RegenerateRequestSchema.default({}))) body: RegenerateRequest,
  ): Promise<{ head: string }> {
    return this.commands.run(user, await this.access.owned(user, id), {
      kind: 'regenerate',
      nodeId,
      ...body,
    });
  }

  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<{ head: string }> {
    return this.commands.run(user, await this.access.owned(user, id), { kind: 'cancel' });
  }

  @Get(':id/reflog')
  async reflog(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query(new ZodPipe(ReflogQuerySchema, 'query')) query: z.infer<typeof ReflogQuerySchema>,
  ): Promise<ReflogPage> {
    return this.reads.reflog(await this.access.owned(user, id), query);
  }

  @Post(':id/recover')
  @HttpCode(200)
  async recover(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(new ZodPipe(RecoverRequestSchema)) body: RecoverRequest,
  ): Promise<HeadMove> {
    return this.commands.run(user, await this.access.owned(user, id), {
      kind: 'recover',
      reflogId: body.reflogId,
    });
  }

  @Post(':id/fork')
  async fork(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body(new ZodPipe(ForkRequestSchema)) body: ForkRequest,
  ): Promise<Conversation> {
    return this.conversations.fork(user, await this.access.owned(user, id), body);
  }

  @Delete(':id')
  @HttpCode(204)
  async archive(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    await this.commands.run(user, await this.access.owned(user, id), { kind: 'archive' });
  }

  /** Archiving deleted nothing, so the owner can take it back; no runner opens until it is read. */
  @Post(':id/unarchive')
  @HttpCode(200)
  async unarchive(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<ListedConversation> {
    return this.views.listed(await this.access.unarchive(user, id));
  }
}
