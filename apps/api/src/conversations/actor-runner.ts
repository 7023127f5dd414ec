import type { Runner } from '@sweatpants/agent-runtime/host';
import type { ConversationRecord, ElicitEvent, TreeNode } from '@sweatpants/domain';
import { ApiError } from '../errors/api-error';
import type { ActorHost, Driven } from './actor-host';
import { statusOf } from './conversation-view';

/**
 * The runner a conversation's actor holds: opened from the tree on demand under the
 * conversation's lease, reopened on a new HEAD after a move, put down when HEAD leaves its branch,
 * closed when the actor retires. Only the actor calls it, from the letter it is handling, so no
 * two of these ever interleave.
 */
export class ActorRunner {
  private open: Promise<Driven> | undefined;
  /** the runner once `open` resolved, for reads that must not wait on an opening one */
  private opened: Driven | undefined;

  constructor(
    readonly conversationId: string,
    private readonly host: ActorHost,
  ) {}

  /**
   * The runner, opened from the tree when none is open or the open one went stale: on the
   * conversation as stored, refused (404) when it is archived.
   */
  async get(): Promise<Runner> {
    return (await this.driven()).runner;
  }

  /**
   * Before HEAD moves: the runner, opened on the stored HEAD when none is (it closed while idle),
   * once it asks again what its record left open. What it asks there is what the clients were
   * shown, and `reopen` withdraws each question the new HEAD does not ask, so no card stays on
   * screen answering nothing.
   */
  async holdBeforeMove(): Promise<void> {
    await (this.peek() ?? (await this.get())).whenAsking();
  }

  /** The open runner, without opening one (a listing should not start turns). */
  peek(): Runner | undefined {
    return this.opened?.runner;
  }

  /**
   * HEAD as this actor last wrote it: the open runner's, which knows every write it made. With no
   * runner, or a stale one (a write found HEAD moved), it is read from the store.
   */
  async head(): Promise<string> {
    const runner = this.peek();
    const known = runner && !runner.stale ? runner.head : undefined;
    return known ?? this.storedHead();
  }

  /**
   * HEAD as stored: where it is when another writer moved it and the actor has not heard yet (a
   * compaction landed; its letter comes next).
   */
  storedHead(): Promise<string> {
    return this.host.storedHead(this.conversationId);
  }

  /** What a joining client is sent again: each pending elicit, with the node that asked it. */
  async pendingEvents(record: ConversationRecord): Promise<ElicitEvent[]> {
    const { runner, outbox } = await this.driven();
    const head = runner.head ?? record.head;
    return runner.pending().map((request) => outbox.elicitEvent(request, head));
  }

  /**
   * After HEAD moved under the runner: a new runner (which resumes a turn whose last user message
   * has no reply), announced to the room with its status and what it waits on. It opens on
   * `startPath` when the move gave HEAD's path (a move back along the old runner's path keeps the
   * part above the new HEAD); otherwise from the tree.
   */
  async reopen(record: ConversationRecord, startPath?: readonly TreeNode[]): Promise<Runner> {
    const { conversationId } = this;
    const before = this.peek()?.pending() ?? [];
    await this.close();
    const { runner, outbox } = await this.openFresh(record, startPath);
    const after = runner.pending();
    const events = this.host.events;
    for (const { elicitId } of before) {
      if (!after.some((r) => r.elicitId === elicitId))
        events.emit('elicit:withdrawn', { conversationId, elicitId, reason: 'head moved' });
    }
    events.emit('status', { conversationId, status: statusOf(runner) });
    const head = runner.head ?? record.head;
    for (const request of after) events.emit('elicit', outbox.elicitEvent(request, head));
    return runner;
  }

  /**
   * HEAD is about to leave the branch the runner works on: whatever runs there is put down, not
   * stopped. The runner closes without writing (a Stop would write a `cancel` node and end the
   * branch's turn for good), so the branch's turn is still cut off in the tree, and a runner
   * opened when the person comes back resumes it and asks its question again under the same id.
   * Its clients hear the question withdrawn meanwhile.
   */
  async leaveBranch(): Promise<void> {
    const runner = this.peek();
    if (!runner?.turnUnderWay) return;
    const left = runner.pending();
    await this.close();
    const { conversationId } = this;
    for (const { elicitId } of left)
      this.host.events.emit('elicit:withdrawn', { conversationId, elicitId, reason: 'branch left' });
  }

  /** Stops the runner without writing (it holds nothing the tree does not). */
  async close(): Promise<void> {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.opened = undefined;
    this.host.runnerClosed(this.conversationId);
    await (await open.catch(() => undefined))?.runner.close();
  }

  private async driven(): Promise<Driven> {
    const open = this.opened;
    if (open && !open.runner.stale) return open;
    // A runner opens only on a conversation the store says is live, as it is now, not on the
    // record a command came with: that may be one a socket read when it joined
    // (ConversationGateway), and the conversation archived since (which closed the runner).
    return this.openFresh(await this.liveRecord());
  }

  /** The conversation as stored, while it is not archived; a 404 otherwise, as access answers. */
  private async liveRecord(): Promise<ConversationRecord> {
    const record = await this.host.store.conversation(this.conversationId);
    if (!record || record.archivedAt !== null) throw new ApiError('not_found', 'no such conversation');
    return record;
  }

  /** Opens a runner, closing one that went stale (HEAD moved under it) or failed to open. */
  private async openFresh(record: ConversationRecord, startPath?: readonly TreeNode[]): Promise<Driven> {
    if (this.open) {
      const pending = await this.open.catch(() => undefined);
      if (pending && !pending.runner.stale) return pending;
      await this.close();
    }
    const opening = this.host.open(record, startPath);
    this.open = opening;
    try {
      const driven = await opening;
      if (this.open === opening) this.opened = driven;
      return driven;
    } catch (error) {
      if (this.open === opening) this.open = undefined;
      throw error;
    }
  }
}
