import { Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { CompactionList, CompactionQueued } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/auth.decorators';
import { AuthGuard } from '../auth/auth.guard';
import { ConversationAccess } from '../conversations/conversation-access';
import { CompactionQueue } from './compaction-queue.service';

/** PROTOCOL.md's compaction routes; another user's conversation is a 404, as one that does not exist. */
@Controller('conversations/:id')
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
  @Post('compact')
  @HttpCode(202)
  async compact(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<CompactionQueued> {
    const conversation = await this.access.owned(user, id);
    const jobId = await this.compactions.request({
      conversationId: conversation.id,
      head: conversation.head,
      requestedBy: user.id,
      trigger: 'request',
    });
    return { jobId };
  }

  /** `GET /api/conversations/:id/compactions` → the conversation's jobs, newest first. */
  @Get('compactions')
  async list(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<CompactionList> {
    const conversation = await this.access.owned(user, id);
    return this.compactions.list(conversation.id);
  }
}
