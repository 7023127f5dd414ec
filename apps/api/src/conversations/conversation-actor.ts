import type { Runner } from '@sweatpants/agent-runtime/host';
import {
  callerNote,
  type CommandOf,
  type CommandResult,
  type ConversationCommand,
  type ConversationRecord,
  type NodeAndHead,
} from '@sweatpants/domain';
import { context, type Context } from '@opentelemetry/api';
import { call, createQueue, resource, spawn, withResolvers, type Operation } from 'effection';
import type { AuthUser } from '../auth/auth-user';
import { ApiError } from '../errors/api-error';
import type { ActorHost } from './actor-host';
import { ActorRunner } from './actor-runner';
import { runnerError } from './api-errors';
import { conversationView } from './conversation-view';
import { HeadMoves } from './head-moves';

/**
 * What the api process tells an actor, beside a person's commands: a compaction moved HEAD, a
 * turn found HEAD moved under its runner, another process drives the conversation now, or it may
 * be idle long enough to retire.
 */
export type Notice =
  | { kind: 'compacted'; summaryNodeId: string }
  | { kind: 'stale' }
  | { kind: 'close' }
  | { kind: 'retire'; idleSince: number };

/** What each notice answers: whether the actor retired, for `retire`. */
type NoticeResult<N extends Notice> = N extends { kind: 'retire' } ? boolean : void;

/** A letter in the actor's mailbox: a command (with who sent it) or a notice. */
type Letter =
  | {
      kind: 'command';
      user: AuthUser;
      record: ConversationRecord;
      command: ConversationCommand;
      /** the trace context it was sent in: handled in it, though the actor's loop runs elsewhere */
      context: Context;
    }
  | { kind: 'notice'; notice: Notice };

/** A letter and whoever waits on what handling it answers. */
interface Envelope {
  letter: Letter;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * One conversation at the api process that drives it. It owns the conversation's runner (opened
 * from the tree on demand, see ActorRunner), the HEAD that runner last wrote, the elicits it waits
 * on and, while the runner is open, the conversation's lease; and it takes letters from its
 * mailbox (an effection queue) one at a time, in the order they arrived: every command of every
 * socket, tab, HTTP request or process, and the notices the process sends it. Each letter is a
 * value, handled by the one exhaustive `switch` below, so a rewind never interleaves with a
 * message, two messages never race for one HEAD, and every client hears the moves in the order the
 * reflog keeps them.
 *
 * @example
 * const { node } = await actor.command(user, record, { kind: 'send', text: 'the lamp' });
 */
export class ConversationActor {
  /** when the actor last took a letter other than an idle check */
  lastUsed = Date.now();
  private readonly mailbox = createQueue<Envelope, never>();
  /** letters posted and not yet finished, the one being handled included */
  private readonly unfinished = new Set<Envelope>();
  private readonly runner: ActorRunner;
  private readonly moves: HeadMoves;
  private retiring = false;
  private readonly retired = withResolvers<void>();

  constructor(
    readonly conversationId: string,
    private readonly host: ActorHost,
  ) {
    this.runner = new ActorRunner(conversationId, host);
    this.moves = new HeadMoves(this.runner, host);
  }

  /**
   * Handles `command` after everything posted before it, alone; settles with its result. The
   * caller checked `user` may touch `record`.
   */
  command<C extends ConversationCommand>(
    user: AuthUser,
    record: ConversationRecord,
    command: C,
  ): Promise<CommandResult<C['kind']>> {
    return this.post({ kind: 'command', user, record, command, context: context.active() }) as Promise<
      CommandResult<C['kind']>
    >;
  }

  /** Tells the actor what happened in the process, as a letter after those before it. */
  tell<N extends Notice>(notice: N): Promise<NoticeResult<N>> {
    return this.post({ kind: 'notice', notice }) as Promise<NoticeResult<N>>;
  }

  /** Letters posted and not yet finished, the one being handled included. */
  get backlog(): number {
    return this.unfinished.size;
  }

  /** The open runner, without opening one or waiting (a listing should not start turns). */
  peek(): Runner | undefined {
    return this.runner.peek();
  }

  /** The actor's life: its letters, one at a time, until it retires. */
  *handleLetters(): Operation<void> {
    while (!this.retiring) {
      const next = yield* this.mailbox.next();
      if (next.done) break;
      const envelope = next.value;
      if (!this.unfinished.has(envelope)) continue; // refused at shutdown
      const { letter } = envelope;
      if (letter.kind === 'command' || letter.notice.kind !== 'retire') this.lastUsed = Date.now();
      try {
        envelope.resolve(yield* call(() => this.handle(letter)));
      } catch (error) {
        envelope.reject(error);
      }
      this.unfinished.delete(envelope);
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
    for (const envelope of this.unfinished) envelope.reject(closed);
    this.unfinished.clear();
    await this.runner.close();
  }

  private post(letter: Letter): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const envelope = { letter, resolve, reject };
      this.unfinished.add(envelope);
      this.mailbox.add(envelope);
    });
  }

  private async handle(letter: Letter): Promise<unknown> {
    if (letter.kind === 'notice') return this.handleNotice(letter.notice);
    const { user, record, command } = letter;
    return this.host.traces.during(this.conversationId, command.kind, letter.context, () =>
      this.asCaller(user, record, command),
    );
  }

  /** A person's command, with how they acted (via MCP…) noted on what the runner writes for it. */
  private async asCaller(
    user: AuthUser,
    record: ConversationRecord,
    command: ConversationCommand,
  ): Promise<CommandResult<ConversationCommand['kind']>> {
    // What the runner writes for this person while it handles their command says how they acted.
    const note = callerNote(user);
    if (note === undefined) return this.handleCommand(user, record, command);
    this.host.acting(this.conversationId, { actorId: user.id, note });
    try {
      return await this.handleCommand(user, record, command);
    } finally {
      this.host.acting(this.conversationId, undefined);
    }
  }

  /** What each kind of command does: the one place a command is handled. */
  private async handleCommand(
    user: AuthUser,
    record: ConversationRecord,
    command: ConversationCommand,
  ): Promise<CommandResult<ConversationCommand['kind']>> {
    switch (command.kind) {
      case 'view': {
        const runner = await this.runner.get();
        return { ...conversationView(record, runner, this.host.model), queued: runner.queued() };
      }
      case 'pending':
        return this.runner.pendingEvents(record);
      case 'send':
        return this.send(user, record, command);
      case 'respond':
        return this.respond(user, record, command);
      case 'withdraw': {
        const runner = await this.runner.get();
        const withdrawn = await runner.withdraw(command.nodeId);
        if (!withdrawn.ok) throw runnerError(withdrawn.error, runner.head);
        return {};
      }
      case 'progress': {
        const runner = await this.runner.get();
        const sent = await runner.progress(command.elicitId, command.payload);
        if (!sent.ok) throw new ApiError('not_found', sent.error.message);
        return {};
      }
      case 'cancel':
        // Halts whatever runs: its `cancel` node moves HEAD (reflog action `cancel`).
        await this.runner.peek()?.cancel(user.id);
        return { head: await this.runner.head() };
      case 'rewind':
        return this.moves.rewind(user, record, command.to, command.expectedHead);
      case 'edit':
        return this.moves.edit(user, record, command.nodeId, command.text, command.expectedHead);
      case 'regenerate':
        return this.moves.regenerate(user, record, command.nodeId, command.expectedHead);
      case 'recover':
        return this.moves.recover(user, record, command.reflogId);
      case 'archive':
        // The runner stops; from now on only admins see the conversation.
        await this.runner.close();
        await this.host.store.archive(record.id);
        return {};
    }
  }

  /**
   * The person's message under HEAD (it answers the pending chat prompt); the agent then runs.
   * While a question waits, the message answers it off-script (a `response` node); while the agent
   * works with nothing to ask, it is queued (the node answered says `queued: true`). A stale
   * `expectedHead` is a 409 naming where HEAD is. The first words title an untitled conversation.
   */
  private async send(
    user: AuthUser,
    record: ConversationRecord,
    { text, photos, expectedHead }: CommandOf<'send'>,
  ): Promise<NodeAndHead> {
    const runner = await this.runner.get();
    const head = runner.head ?? record.head;
    if (expectedHead !== undefined && expectedHead !== head) {
      throw new ApiError('conflict', 'HEAD moved since you last saw it', { head });
    }
    const sent = await runner.send({ text, ...(photos ? { photos } : {}), authorId: user.id });
    if (!sent.ok) throw runnerError(sent.error, runner.head);
    await this.host.titles.fromFirstWords(record, sent.value);
    return { node: sent.value, head: runner.head ?? sent.value.id };
  }

  /**
   * An answer to a pending elicit, checked against its type (a content that does not fit is a 400
   * and changes nothing). Answering again returns the node of the first answer.
   */
  private async respond(
    user: AuthUser,
    record: ConversationRecord,
    { elicitId, answer }: CommandOf<'respond'>,
  ): Promise<NodeAndHead> {
    let runner = await this.runner.get();
    let answered = await runner.respond({ elicitId, ...answer }, user.id);
    if (!answered.ok && runner.stale) {
      // The conversation moved under the runner as it took the answer (a compaction rebased the
      // branch): the runner rebuilt on the new HEAD asks the same elicit again, so answer it there.
      runner = await this.runner.get();
      answered = await runner.respond({ elicitId, ...answer }, user.id);
    }
    if (!answered.ok) throw runnerError(answered.error, runner.head);
    // The chat prompt's answer is the user's message; an `other` answer holds their words too.
    await this.host.titles.fromFirstWords(record, answered.value);
    return { node: answered.value, head: runner.head ?? answered.value.id };
  }

  private async handleNotice(notice: Notice): Promise<boolean | void> {
    switch (notice.kind) {
      case 'compacted': {
        const runner = this.runner.peek();
        // A runner opened since stands on the summary (and may have gone on from it): leave it be.
        if (!runner || (!runner.stale && runner.onPath(notice.summaryNodeId))) return;
        return this.reopenFromStore();
      }
      case 'stale':
        // A turn found HEAD moved (a compaction landed, a closed runner's write came late): its
        // clients would wait for an elicit nobody sends, so reopen at once, from the tree.
        if (this.runner.peek()?.stale) await this.reopenFromStore();
        return;
      case 'close':
        return this.runner.close();
      case 'retire':
        return this.retire(notice.idleSince);
    }
  }

  private async reopenFromStore(): Promise<void> {
    const record = await this.host.store.conversation(this.conversationId);
    if (record) await this.runner.reopen(record);
  }

  /**
   * An idle close: when nothing has used the actor since `idleSince` and nothing runs, the runner
   * closes, the lease goes, and the actor retires if no letter waits behind this one (the next
   * command starts a new actor). Answers whether it retired.
   */
  private async retire(idleSince: number): Promise<boolean> {
    const runner = this.runner.peek();
    if (runner?.status === 'running' || this.lastUsed >= idleSince) return false;
    await this.runner.close();
    await this.host.releaseLease(this.conversationId).catch(() => undefined);
    // Retire only when no letter waits behind this one, and forget the actor in the same tick:
    // no letter can reach it after.
    if (this.unfinished.size > 1) return false;
    this.retiring = true;
    this.host.forget(this.conversationId);
    return true;
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
