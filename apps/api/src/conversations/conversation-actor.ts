import type { Runner } from '@sweatpants/agent-runtime/host';
import type { ConversationRecord, ConversationStatus, ElicitEvent, TreeNode } from '@sweatpants/domain';
import { call, resource, spawn, withResolvers, type Operation } from 'effection';
import { ApiError } from '../errors/api-error';
import type { ConversationEvents } from './conversation-events';
import type { RunnerOutbox } from './runner-outbox';

/** An open runner and the outbox that remembers which node asked each of its elicits. */
export interface Driven {
  runner: Runner;
  outbox: RunnerOutbox;
}

/** What an actor needs from the process it runs in. */
export interface ActorHost {
  /**
   * A runner at the conversation's HEAD, opened under its lease (refused while another process
   * holds it), on `startPath` when the caller has HEAD's path already.
   */
  open(record: ConversationRecord, startPath?: readonly TreeNode[]): Promise<Driven>;
  /** HEAD as stored, for when no runner here knows it. */
  storedHead(conversationId: string): Promise<string>;
  /** Lets another process drive the conversation next. */
  releaseLease(conversationId: string): Promise<void>;
  /** Where a reopened runner announces what it now waits on. */
  readonly events: ConversationEvents;
  /** Told when a runner closes (a gauge for operators). */
  runnerClosed(conversationId: string): void;
  /** Forgets the actor, so that the next work for its conversation starts a new one. */
  forget(actor: ConversationActor): void;
}

/** Work for one conversation, and whoever waits on its result. */
interface Letter {
  work: (actor: ConversationActor) => Promise<unknown>;
  /** whether it counts as use (an idle close does not keep the actor alive) */
  use: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * One open conversation: it owns the conversation's runner (opened from the tree on demand), the
 * HEAD that runner last wrote, the elicits it waits on and, while the runner is open, the
 * conversation's lease; and it handles the work posted to it (every command, a landed compaction,
 * an idle close, a reopen after HEAD moved) one letter at a time, in the order posted. A letter
 * gets the actor itself: only work running as the actor's letter touches its runner, so nothing
 * interleaves with a rewind, and two messages never race for one HEAD.
 *
 * A letter must not post to its own actor and wait for it: it would wait on itself.
 *
 * @example
 * const node = await actor.post(async (self) => (await self.runner(record)).send(message));
 */
export class ConversationActor {
  /** when the actor last took a letter */
  lastUsed = Date.now();
  private readonly letters: Letter[] = [];
  private wake: (() => void) | undefined;
  private open: Promise<Driven> | undefined;
  /** the runner once `open` resolved, for reads that must not wait on an opening one */
  private opened: Driven | undefined;
  private retiring = false;
  private readonly retired = withResolvers<void>();

  constructor(
    readonly conversationId: string,
    private readonly host: ActorHost,
  ) {}

  /** Runs `work` after everything posted before it, alone; settles with what it settles with. */
  post<T>(work: (actor: ConversationActor) => Promise<T>): Promise<T> {
    return this.deliver(work, true);
  }

  /**
   * An idle close, as a letter: when nothing has used the actor since `idleSince` and nothing
   * runs, the runner closes, the lease goes, and the actor retires if no letter waits behind this
   * one (the next command starts a new actor). Answers whether it retired.
   */
  retireIfIdle(idleSince: number): Promise<boolean> {
    return this.deliver(() => this.retire(idleSince), false);
  }

  /** Letters posted and not yet finished, the one being handled included. */
  get backlog(): number {
    return this.letters.length;
  }

  /** The runner, opened from the tree when none is open or the open one went stale. */
  async runner(record: ConversationRecord): Promise<Runner> {
    return (await this.driven(record)).runner;
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
    const { runner, outbox } = await this.driven(record);
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
    await this.closeRunner();
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
    await this.closeRunner();
    const { conversationId } = this;
    for (const { elicitId } of left)
      this.host.events.emit('elicit:withdrawn', { conversationId, elicitId, reason: 'branch left' });
  }

  /** Stops the runner without writing (it holds nothing the tree does not); the actor stays. */
  async closeRunner(): Promise<void> {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.opened = undefined;
    this.host.runnerClosed(this.conversationId);
    await (await open.catch(() => undefined))?.runner.close();
  }

  private async retire(idleSince: number): Promise<boolean> {
    const runner = this.peek();
    if (runner?.status === 'running' || this.lastUsed >= idleSince) return false;
    await this.closeRunner();
    await this.host.releaseLease(this.conversationId).catch(() => undefined);
    // Retire only when no letter waits behind this one, and forget the actor in the same tick:
    // no letter can reach it after.
    if (this.letters.length > 1) return false;
    this.retiring = true;
    this.host.forget(this);
    return true;
  }

  /** The actor's life: its letters, one at a time, until it retires. */
  *handleLetters(): Operation<void> {
    while (!this.retiring) {
      const letter = this.letters[0];
      if (!letter) {
        const { operation, resolve } = withResolvers<void>();
        this.wake = resolve;
        yield* operation;
        this.wake = undefined;
        continue;
      }
      if (letter.use) this.lastUsed = Date.now();
      try {
        letter.resolve(yield* call(() => letter.work(this)));
      } catch (error) {
        letter.reject(error);
      }
      this.letters.shift();
    }
    this.retired.resolve();
  }

  /** Resolves once the actor retired (its owner then ends it, which closes what it holds). */
  *untilRetired(): Operation<void> {
    yield* this.retired.operation;
  }

  /** At the end of the actor's scope: whatever still waits hears the conversation closed here. */
  async shutdown(): Promise<void> {
    const closed = new ApiError('unavailable', 'the conversation closed on this api process; try again');
    for (const letter of this.letters.splice(0)) letter.reject(closed);
    await this.closeRunner();
  }

  private deliver<T>(work: (actor: ConversationActor) => Promise<T>, use: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.letters.push({ work, use, resolve: resolve as (value: unknown) => void, reject });
      this.wake?.();
    });
  }

  private driven(record: ConversationRecord): Promise<Driven> {
    const open = this.opened;
    if (open && !open.runner.stale) return Promise.resolve(open);
    return this.openFresh(record);
  }

  /** Opens a runner, closing one that went stale (HEAD moved under it) or failed to open. */
  private async openFresh(record: ConversationRecord, startPath?: readonly TreeNode[]): Promise<Driven> {
    if (this.open) {
      const pending = await this.open.catch(() => undefined);
      if (pending && !pending.runner.stale) return pending;
      await this.closeRunner();
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

/**
 * The actor as an effection resource of the scope that uses it: its letters are handled by a task
 * of that scope, and when the scope ends (the actor retired, or the process shuts down) whatever
 * still waits is refused and the runner closes.
 */
export function useConversationActor(actor: ConversationActor): Operation<ConversationActor> {
  return resource(function* (provide) {
    yield* spawn(() => actor.handleLetters());
    try {
      yield* provide(actor);
    } finally {
      yield* call(() => actor.shutdown());
    }
  });
}

/** PROTOCOL.md's status of a conversation whose runner is `runner` (none open: idle). */
export function statusOf(runner: Runner | undefined): ConversationStatus {
  if (!runner) return 'idle';
  if (runner.status === 'running') return 'running';
  return runner.pending().length > 0 ? 'waiting' : 'idle';
}
