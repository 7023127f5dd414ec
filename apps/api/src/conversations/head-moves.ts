import {
  callerNote,
  type ConversationRecord,
  type HeadMove,
  type NodeAndHead,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import type { StoreError } from '@sweatpants/tree-store';
import type { AuthUser } from '../auth/auth-user';
import { ApiError } from '../errors/api-error';
import type { ActorHost } from './actor-host';
import type { ActorRunner } from './actor-runner';
import { unwrap } from './api-errors';

/** The nodes that are the user's input to a turn: a reply answers the nearest one above it. */
const TURN_INPUTS: ReadonlySet<string> = new Set(['user', 'response']);

/**
 * Moves of HEAD that come from outside the runner: rewind, edit, regenerate and recover. The
 * conversation's actor makes them while it handles the command, so each runs alone, in this
 * order: check the caller's `expectedHead` against the HEAD the actor knows; resolve what the move
 * names (before anything else moves HEAD); put down whatever runs on the branch it leaves (no
 * `cancel` node: leaving a branch is not a Stop, see `fromLeft`); move from the HEAD the actor then
 * knows (the store's compare-and-swap checks it: nothing is read twice); then reopen the runner on
 * the new HEAD, which runs the agent when the user's last input there has no reply (an edit, a
 * regenerate). A move back along the runner's path (a rewind, a regenerate, an edit of a message on
 * it) reopens on the part of that path it keeps, reading nothing more.
 */
export class HeadMoves {
  constructor(
    private readonly runner: ActorRunner,
    private readonly host: ActorHost,
  ) {}

  private get store(): ActorHost['store'] {
    return this.host.store;
  }

  private get events(): ActorHost['events'] {
    return this.host.events;
  }

  async rewind(
    user: AuthUser,
    record: ConversationRecord,
    to: string,
    expectedHead?: string,
  ): Promise<HeadMove> {
    await this.checkHead(expectedHead);
    await this.runner.holdBeforeMove();
    const target = unwrap(await this.store.resolve(record.id, to), 'to');
    const start = this.runner.peek()?.pathTo(target.id);
    const moved = await this.fromLeft(expectedHead, (head) =>
      this.store.move({
        conversationId: record.id,
        to: target.id,
        action: 'rewind',
        expectedHead: head,
        actorId: user.id,
        message: `rewind: to ${to}`,
        ...noteOf(user),
      }),
    );
    this.events.moved(record.id, moved);
    await this.runner.reopen(record, start);
    return moved;
  }

  async edit(
    user: AuthUser,
    record: ConversationRecord,
    nodeRef: string,
    text: string,
    expectedHead?: string,
  ): Promise<NodeAndHead> {
    await this.checkHead(expectedHead);
    await this.runner.holdBeforeMove();
    const target = unwrap(await this.store.resolve(record.id, nodeRef), 'nodeId');
    const original = await this.store.node(record.id, target.id);
    if (original?.kind !== 'user' || original.parentId === null) {
      throw new ApiError('invalid_request', 'only user messages can be edited', [
        { field: 'nodeId', message: `is a ${original?.kind ?? 'missing'} node` },
      ]);
    }
    // New words for the message, not a new message: its photos stay with it.
    const { photos } = (original as TreeNode<'user'>).payload;
    const above = this.runner.peek()?.pathTo(original.parentId);
    const edited = await this.fromLeft(expectedHead, (head) =>
      this.store.edit({
        conversationId: record.id,
        nodeId: target.id,
        text,
        ...(photos ? { photos } : {}),
        authorId: user.id,
        expectedHead: head,
        actorId: user.id,
        ...noteOf(user),
      }),
    );
    this.events.appended(record.id, edited);
    // Editing the words into a photo-only first message gives an untitled conversation its title.
    if (edited.nodes[0]) await this.host.titles.fromFirstWords(record, edited.nodes[0]);
    await this.runner.reopen(record, above && [...above, ...edited.nodes]);
    return { node: edited.nodes[0] ?? original, head: edited.head };
  }

  /**
   * Another answer to an assistant reply: HEAD moves back to the input that reply answered (the
   * user's message, or their answer to a question: the nearest `user` or `response` node above
   * it), reflog action `regenerate`, and the reopened runner runs the agent from there, so its new
   * reply starts a sibling branch. The old reply stays in the tree and the reflog.
   */
  async regenerate(
    user: AuthUser,
    record: ConversationRecord,
    nodeRef: string,
    expectedHead?: string,
  ): Promise<{ head: string }> {
    await this.checkHead(expectedHead);
    await this.runner.holdBeforeMove();
    const target = unwrap(await this.store.resolve(record.id, nodeRef), 'nodeId');
    const input = await this.answeredInput(target.id);
    const start = this.runner.peek()?.pathTo(input.id);
    const moved = await this.fromLeft(expectedHead, (head) =>
      this.store.move({
        conversationId: record.id,
        to: input.id,
        action: 'regenerate',
        expectedHead: head,
        actorId: user.id,
        message: `regenerate: ${target.id.slice(0, 12)} from ${input.kind} ${input.id.slice(0, 12)}`,
        ...noteOf(user),
      }),
    );
    this.events.moved(record.id, moved);
    await this.runner.reopen(record, start);
    return { head: moved.head };
  }

  async recover(user: AuthUser, record: ConversationRecord, reflogId: string): Promise<HeadMove> {
    await this.runner.holdBeforeMove();
    const entry = await this.store.reflogEntry(record.id, reflogId);
    if (!entry) throw new ApiError('not_found', `no reflog entry ${reflogId} in this conversation`);
    const moved = await this.fromLeft(undefined, (head) =>
      this.store.recover({
        conversationId: record.id,
        reflogId,
        expectedHead: head,
        actorId: user.id,
        ...noteOf(user),
      }),
    );
    this.events.moved(record.id, moved);
    await this.runner.reopen(record);
    return moved;
  }

  /**
   * The user's input the assistant reply `replyId` answered: walking from the reply towards the
   * root, the nearest `user` or `response` node. Met a summary or the root first, the input was
   * squashed by a compaction (or there never was one), and there is nothing to answer again.
   */
  private async answeredInput(replyId: string): Promise<TreeNode> {
    // The walk stops at the nearest summary: the path from the latest summaries holds all it needs,
    // and the runner has it when the reply is on its path.
    const path =
      this.runner.peek()?.pathTo(replyId) ??
      unwrap(await this.store.pathFromSummary(this.runner.conversationId, replyId), 'nodeId');
    const reply = path.at(-1);
    if (reply?.kind !== 'assistant') {
      throw new ApiError('invalid_request', 'only assistant replies can be regenerated', [
        { field: 'nodeId', message: `is a ${reply?.kind ?? 'missing'} node` },
      ]);
    }
    const above = path.slice(0, -1);
    const stop = above.findLastIndex((n) => n.kind === 'summary' || n.kind === 'root');
    const input = above.findLast((n, i) => i > stop && TURN_INPUTS.has(n.kind));
    if (!input) {
      throw new ApiError('invalid_request', 'this reply answers nothing the path still holds', [
        { field: 'nodeId', message: 'no input of the user above it (a compaction summarised it)' },
      ]);
    }
    return input;
  }

  /**
   * A stale `expectedHead` is a 409 whose details say where HEAD is. The actor's HEAD is checked
   * first; the store is read only when they differ, in case another writer moved HEAD and the actor
   * has not heard yet.
   */
  private async checkHead(expectedHead: string | undefined): Promise<void> {
    if (expectedHead === undefined || (await this.runner.head()) === expectedHead) return;
    const head = await this.runner.storedHead();
    if (head !== expectedHead) throw new ApiError('conflict', 'HEAD moved since you last saw it', { head });
  }

  /**
   * Puts down whatever runs on the branch HEAD leaves (ActorRunner.leaveBranch: moving
   * between branches is not a Stop, so a question pending there is pending again on coming back),
   * then writes the move from the HEAD the actor knows, which the store's compare-and-swap checks.
   * When another writer moved HEAD and the actor has not heard yet (a compaction landed), the swap
   * loses and names where HEAD is: the move is made from there, unless the caller named another
   * HEAD as the one they saw (then it is a 409).
   */
  private async fromLeft<T>(
    expectedHead: string | undefined,
    write: (head: string) => Promise<Result<T, StoreError>>,
  ): Promise<T> {
    await this.runner.leaveBranch();
    let written = await write(await this.runner.head());
    const lost = !written.ok && written.error.code === 'conflict' ? written.error.head : undefined;
    if (lost !== undefined && (expectedHead === undefined || expectedHead === lost)) {
      written = await write(lost);
    }
    return unwrap(written);
  }
}

/** How the caller acted, for the reflog entry of their move (absent for the product's own clients). */
function noteOf(user: AuthUser): { note?: string } {
  const note = callerNote(user);
  return note === undefined ? {} : { note };
}
