import { Injectable } from '@nestjs/common';
import type { Runner } from '@sweatpants/agent-runtime/host';
import type { ConversationRecord, ListedConversation } from '@sweatpants/domain';
import { ModelChoice } from '../model/model-choice';
import { statusOf, type ConversationActor } from './conversation-actor';
import { ConversationActors } from './conversation-actors';

/**
 * PROTOCOL.md's Conversation: the stored record plus what its runner is doing, and `archivedAt`, so
 * a list that holds archived ones (the owner's Archived, the admin's) shows them as such.
 */
@Injectable()
export class ConversationViews {
  constructor(
    private readonly actors: ConversationActors,
    private readonly model: ModelChoice,
  ) {}

  /**
   * With the runner opened if need be, so status, pending elicit and the messages still queued are
   * exact: a letter of `actor`'s.
   */
  async live(record: ConversationRecord, actor: ConversationActor): Promise<ListedConversation> {
    const runner = await actor.runner(record);
    return { ...this.view(record, runner), queued: runner.queued() };
  }

  /**
   * For listings: what an open runner says, and for a conversation no runner here drives, `idle`
   * with nothing pending (opening one per row would start turns just to list them).
   */
  async listed(record: ConversationRecord): Promise<ListedConversation> {
    return this.view(record, this.actors.peek(record.id));
  }

  private view(record: ConversationRecord, runner: Runner | undefined): ListedConversation {
    return {
      id: record.id,
      agent: record.agent,
      title: record.title,
      ownerId: record.ownerId,
      // The runner's HEAD, read with its status and pending question: the record was read before,
      // and a turn that ended in between would pair a new chat prompt with the old HEAD.
      head: (runner && !runner.stale ? runner.head : undefined) ?? record.head,
      status: statusOf(runner),
      pendingElicit: runner?.pending()[0] ?? null,
      model: this.model.kind,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      archivedAt: record.archivedAt,
    };
  }
}
