import { Injectable } from '@nestjs/common';
import type { ConversationRecord, HeadMove, NodeAndHead } from '@sweatpants/domain';
import { TreeStore } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { ApiError } from '../errors/api-error';
import { ConversationEvents } from '../realtime/conversation-events';
import { unwrap } from './api-errors';
import { RunnerRegistry } from './runner-registry';

/**
 * Moves of HEAD that come from outside the runner: rewind, edit, recover, and cancel. Each runs
 * alone for its conversation and in this order: check the caller's `expectedHead`, resolve what
 * the move names (before anything else moves HEAD), halt whatever runs (a `cancel` node), move,
 * then reopen the runner on the new HEAD, which runs the agent when the last user message there
 * has no reply (an edit).
 */
@Injectable()
export class HeadMovesService {
  constructor(
    private readonly store: TreeStore,
    private readonly runners: RunnerRegistry,
    private readonly events: ConversationEvents,
  ) {}

  rewind(user: AuthUser, record: ConversationRecord, to: string, expectedHead?: string): Promise<HeadMove> {
    return this.runners.exclusive(record.id, async () => {
      await this.checkHead(record.id, expectedHead);
      const target = unwrap(await this.store.resolve(record.id, to), 'to');
      const head = await this.halt(user, record);
      const moved = unwrap(
        await this.store.move({
          conversationId: record.id,
          to: target.id,
          action: 'rewind',
          expectedHead: head,
          actorId: user.id,
          message: `rewind: to ${to}`,
        }),
      );
      this.events.moved(record.id, moved);
      await this.runners.reopen(record);
      return moved;
    });
  }

  edit(
    user: AuthUser,
    record: ConversationRecord,
    nodeRef: string,
    text: string,
    expectedHead?: string,
  ): Promise<NodeAndHead> {
    return this.runners.exclusive(record.id, async () => {
      await this.checkHead(record.id, expectedHead);
      const target = unwrap(await this.store.resolve(record.id, nodeRef), 'nodeId');
      const original = await this.store.node(record.id, target.id);
      if (original?.kind !== 'user' || original.parentId === null) {
        throw new ApiError('invalid_request', 'only user messages can be edited', [
          { field: 'nodeId', message: `is a ${original?.kind ?? 'missing'} node` },
        ]);
      }
      const head = await this.halt(user, record);
      const edited = unwrap(
        await this.store.edit({
          conversationId: record.id,
          nodeId: target.id,
          text,
          authorId: user.id,
          expectedHead: head,
          actorId: user.id,
        }),
      );
      this.events.appended(record.id, edited);
      await this.runners.reopen(record);
      return { node: edited.nodes[0] ?? original, head: edited.head };
    });
  }

  recover(user: AuthUser, record: ConversationRecord, reflogId: string): Promise<HeadMove> {
    return this.runners.exclusive(record.id, async () => {
      const entry = await this.store.reflogEntry(record.id, reflogId);
      if (!entry) throw new ApiError('not_found', `no reflog entry ${reflogId} in this conversation`);
      const head = await this.halt(user, record);
      const moved = unwrap(
        await this.store.recover({
          conversationId: record.id,
          reflogId,
          expectedHead: head,
          actorId: user.id,
        }),
      );
      this.events.moved(record.id, moved);
      await this.runners.reopen(record);
      return moved;
    });
  }

  /** Halts whatever runs (its `cancel` node moves HEAD, reflog action `cancel`); answers where HEAD is. */
  cancel(user: AuthUser, record: ConversationRecord): Promise<{ head: string }> {
    return this.runners.exclusive(record.id, async () => ({ head: await this.halt(user, record) }));
  }

  /** A stale `expectedHead` is a 409 whose details say where HEAD is. */
  private async checkHead(conversationId: string, expectedHead: string | undefined): Promise<void> {
    if (expectedHead === undefined) return;
    const head = await this.currentHead(conversationId);
    if (head !== expectedHead) throw new ApiError('conflict', 'HEAD moved since you last saw it', { head });
  }

  private async halt(user: AuthUser, record: ConversationRecord): Promise<string> {
    const runner = await this.runners.peek(record.id);
    await runner?.cancel(user.id);
    return this.currentHead(record.id);
  }

  private async currentHead(conversationId: string): Promise<string> {
    const head = await this.store.head(conversationId);
    if (!head) throw new ApiError('not_found', 'no such conversation');
    return head.id;
  }
}
