import {
  err,
  ok,
  type ElicitAnswer,
  type ElicitResponse,
  type Photo,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import { createScope, type Operation, type Scope, type Task } from 'effection';
import type { AnswerError } from '../elicits/pending-elicits';
import { PendingElicits } from '../elicits/pending-elicits';
import type { Model } from '../model/model';
import type { ConversationPort } from '../storage/conversation-port';
import type { AgentDefinition } from './agent-definition';
import {
  consoleLog,
  Logs,
  ModelContext,
  Questions,
  Run,
  SideQuests,
  DEFAULT_QUESTION_TIMEOUT_MS,
  type LogSink,
} from './context';
import { ElicitProtocol } from './elicit-protocol';
import { sinceSummary } from './history';
import { HeadMovedError, Journal } from './journal';
import { silentOutbox, type Outbox, type RunnerStatus } from './outbox';
import { runTurn } from './turn';

export interface RunnerOptions {
  conversationId: string;
  agent: AgentDefinition;
  port: ConversationPort;
  model: Model;
  outbox?: Outbox;
  logs?: LogSink;
  /** how long a tool's question waits; 5 minutes by default (seed 002) */
  questionTimeoutMs?: number;
}

export interface RunnerError {
  code: 'conflict' | 'not_found' | 'invalid_request';
  message: string;
  fields?: string[];
}

/** Transitions in a row before the runner stops a turn chain (a model bouncing between modes). */
const MAX_CHAINED_TURNS = 5;
/** Nodes since the last summary above which the runner asks for compaction, by default. */
const DEFAULT_COMPACT_AFTER = 200;

/**
 * Drives one conversation: runs a turn for each message, holds the elicits waiting for answers,
 * cancels. Its state is the tree: `Runner.open` rebuilds a runner from the path at HEAD and, if a
 * turn was interrupted (a crash, a restart), runs it again from its journal, which returns what
 * was recorded and continues live from where the old runner stopped.
 */
export class Runner {
  readonly elicits = new PendingElicits();
  private readonly scope: Scope;
  private readonly destroy: () => Promise<void>;
  private task: Task<void> | undefined;
  private journal: Journal | undefined;
  private path: TreeNode[] = [];
  private currentStatus: RunnerStatus = 'idle';
  private readonly outbox: Outbox;
  private idleWaiters: (() => void)[] = [];
  /** set when the conversation moved under this runner: it must be reopened */
  stale = false;

  private constructor(private readonly options: RunnerOptions) {
    const [scope, destroy] = createScope();
    this.scope = scope;
    this.destroy = async () => {
      await destroy();
    };
    const outer = options.outbox ?? silentOutbox;
    this.outbox = {
      ...outer,
      status: (status) => {
        this.currentStatus = status;
        outer.status(status);
      },
    };
  }

  /** A runner for the conversation at its HEAD; an interrupted turn resumes at once. */
  static async open(options: RunnerOptions): Promise<Runner> {
    const runner = new Runner(options);
    const path = await options.port.path(options.conversationId);
    if (!path.ok) throw new Error(`opening ${options.conversationId}: ${path.error.message}`);
    runner.path = path.value;
    const start = path.value.findLastIndex((n) => n.kind === 'user');
    const tail = start >= 0 ? path.value.slice(start + 1) : [];
    // A turn ends with its answer or a cancel node; one without either was cut off. Replaying a
    // finished turn would also be harmless (it writes nothing), but it is not needed.
    if (start >= 0 && !tail.some((n) => n.kind === 'cancel')) {
      runner.start(
        new Journal(
          options.port,
          options.conversationId,
          path.value.slice(0, start + 1),
          tail,
          runner.appended,
        ),
      );
    }
    return runner;
  }

  get status(): RunnerStatus {
    return this.currentStatus;
  }

  get head(): string | undefined {
    return this.journal?.head ?? this.path.at(-1)?.id;
  }

  /** A user's message: written under HEAD, then a turn runs on it. The node is returned at once. */
  async send(message: {
    text: string;
    photos?: Photo[];
    authorId: string;
  }): Promise<Result<TreeNode, RunnerError>> {
    if (this.stale) return err({ code: 'conflict', message: 'the conversation moved; reopen the runner' });
    if (this.task)
      return err({ code: 'conflict', message: 'a turn is running: answer its question or cancel it first' });
    const journal = new Journal(this.options.port, this.options.conversationId, this.path, [], this.appended);
    const payload = message.photos?.length
      ? { text: message.text, photos: message.photos }
      : { text: message.text };
    try {
      const [node] = await journal.appendNow([{ kind: 'user', payload, authorId: message.authorId }]);
      this.start(journal);
      return ok(node as TreeNode);
    } catch (error) {
      if (error instanceof HeadMovedError) {
        this.stale = true;
        return err({ code: 'conflict', message: error.message });
      }
      throw error;
    }
  }

  /** An answer to a pending elicit, checked against its type; a bad one changes nothing. */
  answer(answer: ElicitAnswer): Result<ElicitResponse, AnswerError> {
    return this.elicits.answer(answer);
  }

  /**
   * Stops the running turn: the model request is aborted, pending elicits are withdrawn, and a
   * `cancel` node is written after anything the turn had in flight. Returns that node, or null
   * when nothing was running.
   */
  async cancel(actorId: string): Promise<TreeNode | null> {
    const task = this.task;
    const journal = this.journal;
    if (!task || !journal) return null;
    await task.halt();
    await journal.drained();
    const [node] = await journal.appendNow(
      [{ kind: 'cancel', payload: { by: actorId }, authorId: actorId }],
      'cancel',
    );
    this.path = [...journal.path()];
    return node as TreeNode;
  }

  /** Resolves when no turn is running (a test's or a shutdown's wait). */
  whenIdle(): Promise<void> {
    if (!this.task) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops everything without writing: a shutdown, or a crash in a test. */
  async close(): Promise<void> {
    await this.destroy();
    this.task = undefined;
  }

  private readonly appended = (nodes: TreeNode[], head: string): void => {
    this.outbox.nodes(nodes, head);
  };

  private start(journal: Journal): void {
    this.journal = journal;
    const { agent, conversationId, model, port } = this.options;
    const outbox = this.outbox;
    const elicits = this.elicits;
    const logs = this.options.logs ?? consoleLog;
    const timeoutMs = this.options.questionTimeoutMs ?? DEFAULT_QUESTION_TIMEOUT_MS;
    outbox.status('running');

    function* turns(): Operation<void> {
      yield* Run.set({ conversationId, authorId: `agent:${agent.name}`, journal, outbox });
      yield* ModelContext.set(model);
      yield* Logs.set(logs);
      yield* Questions.set({ timeoutMs });
      yield* ElicitProtocol.implement(elicits.implementation);
      // An off-script answer runs one turn on the user's words below the answer (seed 004).
      yield* SideQuests.set(function* () {
        yield* SideQuests.with(null, () => runTurn(agent));
      });
      if (sinceSummary(journal.path()) > (agent.compactAfter ?? DEFAULT_COMPACT_AFTER)) {
        void port.requestCompaction({ conversationId, head: journal.head }).catch(() => undefined);
      }
      for (let chained = 0; chained < MAX_CHAINED_TURNS; chained++) {
        const end = yield* runTurn(agent);
        if (end.kind !== 'break') return;
      }
    }

    const task = this.scope.run(turns);
    this.task = task;
    task.then(
      () => this.finish(task),
      (error: unknown) => {
        if (error instanceof HeadMovedError) this.stale = true;
        else if (!(error instanceof Error && error.message === 'halted')) {
          logs.write('error', `turn failed in ${conversationId}`, {
            message: error instanceof Error ? error.message : String(error),
          });
        }
        this.finish(task);
      },
    );
  }

  private finish(task: Task<void>): void {
    if (this.task !== task) return;
    this.task = undefined;
    if (this.journal) this.path = [...this.journal.path()];
    this.outbox.status('idle');
    for (const wake of this.idleWaiters.splice(0)) wake();
  }
}
