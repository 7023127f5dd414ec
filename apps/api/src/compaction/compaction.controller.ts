import { Controller, UseGuards } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/auth.decorators';
import { AuthGuard } from '../auth/auth.guard';
import { ConversationAccess } from '../conversations/conversation-access';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { CompactionQueue } from './compaction-queue.service';

const { compact, compactions } = HTTP_CONTRACT;

/** PROTOCOL.md's compaction routes; another user's conversation is a 404, as one that does not exist. */
@Controller()
@UseGuards(AuthGuard)
export class CompactionController {
  constructor(
    private readonly access: ConversationAccess,
    private readonly compactions: CompactionQueue,
  ) {}

  /**
   * `POST /api/conversations/:id/compact` → 202 `{jobId}`: one job per (conversation, HEAD). It
   * squashes all but a short recent tail, or completes with the reason it had nothing to squash.
   */
  @Endpoint(compact)
  async compact(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof compact>,
  ): EndpointResult<typeof compact> {
    const conversation = await this.access.owned(user, params.id);
    const jobId = await this.compactions.request({
      conversationId: conversation.id,
      head: conversation.head,
      requestedBy: user.id,
      trigger: 'request',
    });
    return { jobId };
  }

  /** `GET /api/conversations/:id/compactions` → the conversation's jobs, newest first. */
  @Endpoint(compactions)
  async list(
    @CurrentUser() user: AuthUser,
    @Input() { params }: EndpointInput<typeof compactions>,
  ): EndpointResult<typeof compactions> {
    const conversation = await this.access.owned(user, params.id);
    return this.compactions.list(conversation.id);
  }
}
