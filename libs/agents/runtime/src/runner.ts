import {
  err,
  foldPath,
  ok,
  type ElicitAnswer,
  type ElicitRequest,
  type ElicitResponse,
  type Json,
  type Photo,
  type QueuedMessage,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import type { Task } from 'effection';
import type { AnswerError } from './pending-elicits';
import { PendingElicits } from './pending-elicits';
import { chatPromptAt } from './answer-records';
import { RunnerAnswers } from './runner-answers';
import { consoleLog } from './context';
import { InputQueue } from './input-queue';
import { TurnSlot } from './turn-slot';
import { HeadMovedError, Journal, type FoldCache } from './journal';
import { cutOffTurn, openingPath } from './opening-path';
import { followHead } from './follow-head';
import { silentOutbox, whileOpen, type Outbox, type RunnerStatus } from './outbox';
import type { RunnerError, RunnerOptions } from './runner-options';
import { turnChain } from './turn-chain';

export type { RunnerError, RunnerOptions } from './runner-options';

/**
 * Drives one conversation: runs a turn for each message, holds the elicits waiting for answers,
 * cancels. Its state is the tree: `Runner.open` rebuilds a runner from the path at HEAD and, if a
 * turn was interrupted (a crash, a restart), runs it again from its journal, which returns what
 * was recorded and continues live from where the old runner stopped.
 *
 * @example
 * const runner = await Runner.open({ conversationId, agent: Donations.definition, port, model, outbox });
 * const sent = await runner.send({ text: 'I have a winter coat to give away', authorId: user.id });
 * await runner.whenIdle();
 * runner.pending(); // the question the turn waits on, or the chat prompt
 * await runner.close();
 */
export class Runner {
  /** the questions of the running turn that wait for an answer; `progress` reaches them here */
  readonly elicits = new PendingElicits();
  /** the turn under way, in the runner's own effection scope */
  private readonly turn = new TurnSlot();
  private journal: Journal | undefined;
  /** HEAD's path from its latest summaries (or the root) */
  private path: TreeNode[] = [];
  private currentStatus: RunnerStatus = 'idle';
  private readonly outbox: Outbox;
  private closed = false;
  /** the agent's folds at the last turn's end, so the next turn folds only its own nodes */
  private readonly folds: FoldCache = new Map();
  /** set, here only, when a write found HEAD moved under this runner, or when it closed */
  private mustReopen = false;
  /** messages sent while a turn worked, taken one a prompt (set by `open`) */
  private queue!: InputQueue;
  /** a Stop is halting the turn: its ending waits for the cancel node */
  private stopping = false;
  /** a turn ended while the message it began from was still being taken: the take goes on (takeNext) */
  private endLeftToTake = false;

  private constructor(private readonly options: RunnerOptions) {
    // A closed runner says nothing more (its halted question does not announce a withdrawal):
    // what it held is in the tree, and whoever opens the conversation next says what waits.
    this.outbox = whileOpen(
      options.outbox ?? silentOutbox,
      () => !this.closed,
      (status) => {
        this.currentStatus = status;
      },
    );
  }

  /**
   * A runner for the conversation at its HEAD, read from its latest summaries (`openingPath`)
   * unless the caller has that path (`startPath`); an interrupted turn resumes at once.
   */
  static async open(options: RunnerOptions): Promise<Runner> {
    const runner = new Runner(options);
    const path = options.startPath
      ? ok([...options.startPath])
      : await openingPath(options.port, options.conversationId, options.agent);
    if (!path.ok) throw new Error(`opening ${options.conversationId}: ${path.error.message}`);
    runner.path = path.value;
    await followHead(options, path.value);
    const { port, conversationId } = options;
    runner.queue = await InputQueue.load(port.queue, conversationId, path.value, (items) =>
      runner.outbox.queue(items),
    );
    const cut = cutOffTurn(path.value);
    if (cut) {
      runner.start(new Journal(port, conversationId, cut.above, cut.recorded, runner.appended, runner.folds));
    } else {
      // A message queued before a restart (or before the turn it waited on was stopped) is next.
      await runner.takeNext();
    }
    return runner;
  }

  /** The conversation moved under this runner (a write found another HEAD), or it closed: it must be reopened. */
  get stale(): boolean {
    return this.mustReopen;
  }

  /** What the runner is doing: idle, running a turn, or waiting on a question. */
  get status(): RunnerStatus {
    // Opened with no turn to resume, it waits on its chat prompt as one that finished a turn does.
    if (this.currentStatus === 'idle' && !this.turn.task && !this.stale && this.head) return 'waiting';
    return this.currentStatus;
  }

  /** Whether a turn is under way: working, or waiting on one of its questions. */
  get turnUnderWay(): boolean {
    return this.turn.task !== undefined;
  }

  /** The conversation's HEAD as stored (a running turn may have appended nodes still to be written). */
  get head(): string | undefined {
    return this.journal?.durableHead ?? this.path.at(-1)?.id;
  }

  /**
   * A user's message: written under HEAD, then a turn runs on it; the node is returned at once.
   * While a question waits, the message answers it off-script and its `response` node is returned.
   * While the turn works with nothing to ask (or other messages wait), it is queued: stored at once
   * and taken at the next chat prompt; the node returned is PROTOCOL.md's queued node.
   */
  async send(message: {
    text: string;
    photos?: Photo[];
    authorId: string;
  }): Promise<Result<TreeNode, RunnerError>> {
    if (this.stale) return err({ code: 'conflict', message: 'the conversation moved; reopen the runner' });
    if (this.turn.task) {
      // A runner rebuilt after an idle close or a restart re-runs its last turn from the tree: the
      // question it left open is asked again in a moment, and the words are for it, as they would
      // have been had the runner stayed (not a message queued behind a question still waiting).
      const reasked = this.elicits.list().length === 0 ? this.journal?.openInRecord()[0] : undefined;
      if (reasked) await this.answers.whenAsked(reasked);
      // Words typed while a question waits answer it off-script (seed 004): the agent reads them
      // as its answer, or as a side quest after which it asks again.
      const waiting = this.elicits.list()[0];
      if (waiting) {
        const content: Json = message.photos?.length
          ? { text: message.text, photos: message.photos as unknown as Json }
          : { text: message.text };
        return this.respond({ elicitId: waiting.elicitId, action: 'other', content }, message.authorId);
      }
    }
    if (this.turn.task || this.queue.busy) {
      const at = (this.journal?.path() ?? this.path).at(-1);
      if (!at) return err({ code: 'conflict', message: 'the conversation has no HEAD to queue under' });
      const queued = await this.queue.add(message, at);
      // The turn may have ended while the message was being stored, finding the queue empty:
      // nothing else would take it now, so it is taken here as the turn's end would have.
      if (!this.turn.task && !this.stopping && !this.stale && !this.closed) this.takeQueued(false);
      return ok(queued);
    }
    return this.begin(
      message.photos?.length ? { text: message.text, photos: message.photos } : { text: message.text },
      message.authorId,
    );
  }

  /** What waits in the queue, oldest first. */
  queued(): QueuedMessage[] {
    return this.queue.list();
  }

  /** The person withdraws a queued message before the agent takes it. */
  withdraw(id: string): Promise<Result<void, RunnerError>> {
    return this.queue.withdraw(id, this.journal?.path() ?? this.path);
  }

  /** Writes a user's message under HEAD and runs a turn on it. */
  private async begin(
    payload: TreeNode<'user'>['payload'],
    authorId: string,
  ): Promise<Result<TreeNode, RunnerError>> {
    const journal = new Journal(
      this.options.port,
      this.options.conversationId,
      this.path,
      [],
      this.appended,
      this.folds,
    );
    // The turn goes on from the message at once; the message is stored with what the turn says
    // first (one write), and acknowledged once it is.
    const { nodes, stored } = journal.appendSoon([{ kind: 'user', payload, authorId }]);
    this.start(journal);
    try {
      await stored;
      return ok(nodes[0] as TreeNode);
    } catch (error) {
      if (error instanceof HeadMovedError) {
        this.mustReopen = true;
        return err({ code: 'conflict', message: error.message });
      }
      throw error;
    }
  }

  /**
   * An answer to a pending elicit, checked against its type; a bad one changes nothing. Its node is
   * authored by `authorId` when given, else by the agent.
   */
  answer(answer: ElicitAnswer, authorId?: string): Result<ElicitResponse, AnswerError> {
    return this.elicits.answer(answer, authorId);
  }

  /**
   * Stops the running turn: the model request is aborted, pending elicits are withdrawn, and a
   * `cancel` node is written after anything the turn had in flight. Returns that node, or null
   * when nothing was running. (A move of HEAD to another branch is not a stop: its host closes the
   * runner instead, and the branch's turn resumes when HEAD comes back.)
   */
  async cancel(actorId: string): Promise<TreeNode | null> {
    const task = this.turn.task;
    const journal = this.journal;
    if (!task || !journal) return null;
    // The halted turn's own ending must not take the queue before the cancel node is written.
    this.stopping = true;
    try {
      await task.halt();
      await journal.drained();
      this.finish(task);
    } finally {
      this.stopping = false;
    }
    let node: TreeNode | undefined;
    try {
      [node] = await journal.appendNow(
        [{ kind: 'cancel', payload: { by: actorId }, authorId: actorId }],
        'cancel',
      );
    } catch (error) {
      // HEAD moved under the halted turn (another writer ended it): there is nothing left to
      // mark cancelled, and this runner is stale; the caller moves HEAD from where it is now.
      if (!(error instanceof HeadMovedError)) throw error;
      this.mustReopen = true;
      this.settle();
      return null;
    }
    this.path = [...journal.path()];
    // A Stop ends the turn, not what the person queued: the queue's first is the next input.
    if (!(await this.takeNext())) this.settle();
    return node as TreeNode;
  }

  /**
   * What the conversation waits on, to send a client that joins or reconnects: the elicits of the
   * running turn, or, when no turn runs, the chat prompt for the user's next message.
   */
  pending(): ElicitRequest[] {
    if (this.turn.task) return this.elicits.list();
    if (this.queue.busy) return [];
    const head = this.head;
    return head && !this.stale ? [chatPromptAt(this.options.agent, this.state(), head)] : [];
  }

  /**
   * An answer from a client, as PROTOCOL.md's elicit response: checked against the elicit's type,
   * then resolved to the node that records it (RunnerAnswers).
   */
  respond(answer: ElicitAnswer, authorId: string): Promise<Result<TreeNode, RunnerError>> {
    return this.answers.respond(answer, authorId);
  }

  /** What a question's widget reports (PROTOCOL.md's elicit progress), once the question is held. */
  progress(elicitId: string, payload: Json): Promise<Result<void, AnswerError>> {
    return this.answers.progress(elicitId, payload);
  }

  /** The agent's state at HEAD (the fold of the path), for a client that asks. */
  state(): Json {
    return this.journal
      ? this.journal.fold(this.options.agent.state)
      : foldPath(this.options.agent.state, this.path);
  }

  /**
   * Resolves once `pending()` lists what the conversation waits on: a turn rebuilt from the tree
   * (after an idle close, a restart) has asked again each question its record left open, or ended.
   */
  async whenAsking(): Promise<void> {
    for (const elicitId of this.journal?.openInRecord() ?? []) await this.answers.whenAsked(elicitId);
  }

  /** Resolves when no turn is running (a test's or a shutdown's wait). */
  whenIdle(): Promise<void> {
    return this.turn.whenIdle();
  }

  /**
   * Stops everything without writing more (what the turn had not stored is dropped): a shutdown, a
   * lost lease, a reopen on a moved HEAD, or a crash in a test. Resolves once a write already under
   * way has landed or failed (TurnSlot.close bounds the wait), so a runner opened next reads a HEAD
   * that nothing of this one moves later: an answer being stored as a reopen begins is found by the
   * new runner instead of moving HEAD under it.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.turn.close(this.journal?.abandon());
    // A closed runner answers nothing more: whoever waits on its turn hears it ended.
    this.mustReopen = true;
    this.turn.release();
  }

  /**
   * The path a runner opened after HEAD moved back to `nodeId` stands on, when this runner has it:
   * its stored path (from the same summaries `openingPath` begins at) cut at `nodeId`. Undefined
   * while a turn runs, or when `nodeId` is not on the path.
   */
  pathTo(nodeId: string): TreeNode[] | undefined {
    if (this.turn.task || this.mustReopen) return undefined;
    const at = this.path.findIndex((n) => n.id === nodeId);
    return at < 0 ? undefined : this.path.slice(0, at + 1);
  }

  /**
   * Whether `nodeId` is on the path this runner stands on (stored or replayed), which begins at
   * the latest summaries: a node above them answers no (a summary compaction wrote never is).
   */
  onPath(nodeId: string): boolean {
    return (this.journal?.path() ?? this.path).some((n) => n.id === nodeId);
  }

  private readonly answers = new RunnerAnswers({
    path: () => this.journal?.path() ?? this.path,
    head: () => this.head,
    turnRunning: () => this.turn.task !== undefined,
    openInRecord: () => this.journal?.openInRecord() ?? [],
    elicits: this.elicits,
    drained: async () => this.journal?.drained(),
    whenIdle: () => this.whenIdle(),
    send: (message) => this.send(message),
  });

  private readonly appended = (nodes: TreeNode[], head: string): void => {
    this.outbox.nodes(nodes, head);
    this.answers.waiters.stored(nodes);
  };

  /** Nothing runs: the conversation waits for the user's next message. */
  private promptForChat(): boolean {
    const head = this.head;
    if (this.turn.task || this.stale || !head) return false;
    this.outbox.status('waiting');
    this.outbox.elicit(chatPromptAt(this.options.agent, this.state(), head), head);
    return true;
  }

  private start(journal: Journal): void {
    this.journal = journal;
    const { agent, conversationId, model, port } = this.options;
    const outbox = this.outbox;
    const elicits = this.elicits;
    const logs = this.options.logs ?? consoleLog;
    const timeoutMs = this.options.questionTimeoutMs;
    const provide = this.options.provide;
    outbox.status('running');

    const turns = () =>
      turnChain({ agent, conversationId, model, port, journal, outbox, logs, elicits, timeoutMs, provide });

    const task = this.turn.run(turns);
    task.then(
      () => this.finish(task),
      (error: unknown) => {
        if (error instanceof HeadMovedError) {
          this.mustReopen = true;
          this.options.onStale?.();
        } else if (!(error instanceof Error && error.message === 'halted')) {
          logs.write('error', `turn failed in ${conversationId}`, {
            message: error instanceof Error ? error.message : String(error),
          });
        }
        // What the turn appended before it stopped still lands (or is dropped with a failed write).
        void journal.drained().then(() => this.finish(task));
      },
    );
  }

  /**
   * The turn ended. At its chat prompt the queue's first message is taken as the next input;
   * with nothing queued the prompt is put before the person. A Stop (`stopping`) writes its
   * cancel node first and then does either itself.
   */
  private finish(task: Task<void>): void {
    if (!this.turn.free(task)) return;
    if (this.journal) this.path = [...this.journal.path()];
    if (this.stopping) return;
    // A turn on a queued message may end before that message is stored (it is stored with the
    // turn's nodes): the take, still under way, goes on from here when it returns (takeNext).
    if (this.queue.taking) {
      this.endLeftToTake = true;
      return;
    }
    this.afterTurn();
  }

  /** What follows a turn: the queue's next message, or the prompt. */
  private afterTurn(): void {
    if (this.queue.busy && !this.stale) {
      this.takeQueued(true);
      return;
    }
    this.settle();
  }

  /**
   * Takes the queue's first message as the next input; with none taken, settles when `settle` says
   * so (a turn's end; a message stored after the end found the prompt already put).
   */
  private takeQueued(settle: boolean): void {
    void this.takeNext().then(
      (took) => took || (settle && this.settle()),
      (error: unknown) => {
        (this.options.logs ?? consoleLog).write('error', `taking a queued message failed`, {
          message: error instanceof Error ? error.message : String(error),
        });
        if (settle) this.settle();
      },
    );
  }

  /** Nothing more runs: the prompt (or idle) is said, and whoever waits for that is woken. */
  private settle(): void {
    if (!this.promptForChat()) this.outbox.status('idle');
    this.turn.wake();
  }

  /**
   * Takes the queue's first message as the next input: its `user` node (saying `queuedId`) is
   * written under HEAD and a turn runs on it; then it leaves the queue. False when nothing waits,
   * a turn runs, or HEAD moved under the runner (the message then waits for the next runner).
   */
  private async takeNext(): Promise<boolean> {
    if (this.turn.task || this.stale) return false;
    const took = await this.queue.takeNext((payload, authorId) => this.begin(payload, authorId));
    // The turn on it ended while it was being stored, and left what follows to the take (only
    // then: a turn that ended after the take returned has done it itself).
    const left = this.endLeftToTake;
    this.endLeftToTake = false;
    if (took && left && !this.stopping && !this.closed) this.afterTurn();
    return took;
  }
}
