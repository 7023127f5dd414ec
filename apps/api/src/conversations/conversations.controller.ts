import { Controller, Inject, Req } from '@nestjs/common';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import { AgentNameSchema, CreateConversationRequestSchema, HTTP_CONTRACT } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/auth.decorators';
import { AGENT_CATALOG } from '../agents/agent-catalog.module';
import {
  Endpoint,
  Input,
  parseEndpointInput,
  type EndpointInput,
  type EndpointResult,
  type RawInput,
  type StricterInput,
} from '../http/endpoint';
import { ConversationAccess } from './conversation-access';
import { ConversationCommands } from './conversation-commands';
import { ConversationReads } from './conversation-reads';
import { ConversationsService } from './conversations.service';
import { ConversationActors } from './conversation-actors';

const {
  createConversation,
  listConversations,
  conversation,
  renameConversation,
  sendMessage,
  withdrawQueued,
  respond,
  path,
  state,
  tree,
  node,
  rewind,
  edit,
  regenerate,
  cancel,
  reflog,
  recover,
  fork,
  archiveConversation,
  unarchiveConversation,
} = HTTP_CONTRACT;

/** PROTOCOL.md, Conversations (the compaction routes live with the compaction jobs). */
@Controller()
export class ConversationsController {
  /** PROTOCOL.md's create request, its agent one of those registered in this deployment. */
  private readonly createRequest: StricterInput<typeof createConversation>;

  constructor(
    private readonly access: ConversationAccess,
    private readonly conversations: ConversationsService,
    private readonly reads: ConversationReads,
    private readonly commands: ConversationCommands,
    private readonly actors: ConversationActors,
    @Inject(AGENT_CATALOG) agents: AgentCatalog,
  ) {
    this.createRequest = {
      body: CreateConversationRequestSchema.extend({
        agent: AgentNameSchema.refine((name) => agents.has(name), {
          message: `must be one of the agents at GET /api/agents: ${agents.names().join(', ')}`,
        }),
      }),
    };
  }

  /**
   * The contract cannot know which agents this deployment registered, so this handler parses its
   * input itself, with the contract's body schema extended by that check: in one pass, so a 400
   * names every bad field at once (`agent` beside a bad `title`).
   */
  @Endpoint(createConversation)
  create(@CurrentUser() user: AuthUser, @Req() req: RawInput): EndpointResult<typeof createConversation> {
    const { body } = parseEndpointInput(createConversation, req, this.createRequest);
    return this.conversations.create(user, body);
  }

  /** The caller's list, or with `archived=true` what they archived (to find one and unarchive it). */
  @Endpoint(listConversations)
  async list(
    @CurrentUser() user: AuthUser,
    @Input() { query }: EndpointInput<typeof listConversations>,
  ): EndpointResult<typeof listConversations> {
    const { archived, ...page } = query;
    if (archived !== true) return this.conversations.list(user, page);
    const found = await this.reads.archived(user.id, page);
    return { items: found.items.map((r) => this.actors.listed(r)), next: found.next };
  }

  @Endpoint(conversation)
  async get(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof conversation>,
  ): EndpointResult<typeof conversation> {
    return this.commands.run(user, await this.access.owned(user, params.id), { kind: 'view' });
  }

  @Endpoint(renameConversation)
  async rename(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof renameConversation>,
  ): EndpointResult<typeof renameConversation> {
    const renamed = await this.conversations.rename(await this.access.owned(user, params.id), body.title);
    return this.commands.run(user, renamed, { kind: 'view' });
  }

  @Endpoint(sendMessage)
  async send(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof sendMessage>,
  ): EndpointResult<typeof sendMessage> {
    return this.commands.send(user, await this.access.owned(user, params.id), body);
  }

  @Endpoint(withdrawQueued)
  async withdrawQueued(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof withdrawQueued>,
  ): EndpointResult<typeof withdrawQueued> {
    await this.commands.run(user, await this.access.owned(user, params.id), {
      kind: 'withdraw',
      nodeId: params.nodeId,
    });
  }

  @Endpoint(respond)
  async respond(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof respond>,
  ): EndpointResult<typeof respond> {
    return this.commands.respond(user, await this.access.owned(user, params.id), params.elicitId, body);
  }

  @Endpoint(path)
  async path(
    @CurrentUser() user: AuthUser,
    @Input() { params, query }: EndpointInput<typeof path>,
  ): EndpointResult<typeof path> {
    return this.reads.path(await this.access.owned(user, params.id), query.at);
  }

  @Endpoint(state)
  async state(
    @CurrentUser() user: AuthUser,
    @Input() { params, query }: EndpointInput<typeof state>,
  ): EndpointResult<typeof state> {
    return this.reads.state(await this.access.owned(user, params.id), query.at);
  }

  @Endpoint(tree)
  async tree(
    @CurrentUser() user: AuthUser,
    @Input() { params, query }: EndpointInput<typeof tree>,
  ): EndpointResult<typeof tree> {
    return this.reads.tree(await this.access.owned(user, params.id), query);
  }

  @Endpoint(node)
  async node(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof node>,
  ): EndpointResult<typeof node> {
    return this.reads.node(await this.access.owned(user, params.id), params.nodeId);
  }

  @Endpoint(rewind)
  async rewind(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof rewind>,
  ): EndpointResult<typeof rewind> {
    return this.commands.run(user, await this.access.owned(user, params.id), { kind: 'rewind', ...body });
  }

  @Endpoint(edit)
  async edit(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof edit>,
  ): EndpointResult<typeof edit> {
    return this.commands.run(user, await this.access.owned(user, params.id), {
      kind: 'edit',
      nodeId: params.nodeId,
      ...body,
    });
  }

  /** Every field of its body is optional, so a request may leave the body out (see @Input()). */
  @Endpoint(regenerate)
  async regenerate(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof regenerate>,
  ): EndpointResult<typeof regenerate> {
    return this.commands.run(user, await this.access.owned(user, params.id), {
      kind: 'regenerate',
      nodeId: params.nodeId,
      ...body,
    });
  }

  @Endpoint(cancel)
  async cancel(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof cancel>,
  ): EndpointResult<typeof cancel> {
    return this.commands.run(user, await this.access.owned(user, params.id), { kind: 'cancel' });
  }

  @Endpoint(reflog)
  async reflog(
    @CurrentUser() user: AuthUser,
    @Input() { params, query }: EndpointInput<typeof reflog>,
  ): EndpointResult<typeof reflog> {
    return this.reads.reflog(await this.access.owned(user, params.id), query);
  }

  @Endpoint(recover)
  async recover(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof recover>,
  ): EndpointResult<typeof recover> {
    return this.commands.run(user, await this.access.owned(user, params.id), {
      kind: 'recover',
      reflogId: body.reflogId,
    });
  }

  @Endpoint(fork)
  async fork(
    @CurrentUser() user: AuthUser,
    @Input() { params, body }: EndpointInput<typeof fork>,
  ): EndpointResult<typeof fork> {
    return this.conversations.fork(user, await this.access.owned(user, params.id), body);
  }

  @Endpoint(archiveConversation)
  async archive(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof archiveConversation>,
  ): EndpointResult<typeof archiveConversation> {
    await this.commands.run(user, await this.access.owned(user, params.id), { kind: 'archive' });
  }

  /** Archiving deleted nothing, so the owner can take it back; no runner opens until it is read. */
  @Endpoint(unarchiveConversation)
  async unarchive(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof unarchiveConversation>,
  ): EndpointResult<typeof unarchiveConversation> {
    return this.actors.listed(await this.access.unarchive(user, params.id));
  }
}
