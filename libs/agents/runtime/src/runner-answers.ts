import {
  err,
  ok,
  type ElicitAnswer,
  type Json,
  type Photo,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import {
  AnswerWaiters,
  chatElicitId,
  chatMessage,
  notWaiting,
  recordedAnswer,
  sameWords,
} from './answer-records';
import type { AnswerError, PendingElicits } from './pending-elicits';
import type { RunnerError } from './runner-options';

/** What answering needs of its runner, read at the moment it is asked. */
export interface AnsweringRunner {
  /** the path the runner stands on: the running turn's (stored or replayed), or the stored one */
  path(): readonly TreeNode[];
  /** HEAD as stored */
  head(): string | undefined;
  /** whether a turn is under way */
  turnRunning(): boolean;
  /** the questions a rebuilt turn's record asked that nothing answers yet: it asks them again */
  openInRecord(): readonly string[];
  readonly elicits: PendingElicits;
  /** resolves once the running turn's writes under way have landed */
  drained(): Promise<void>;
  /** resolves when no turn runs */
  whenIdle(): Promise<void>;
  /** the user's message, as `Runner.send` takes it */
  send(message: { text: string; photos?: Photo[]; authorId: string }): Promise<Result<TreeNode, RunnerError>>;
}

/**
 * How a runner takes a client's answer (PROTOCOL.md's elicit response): checked against the
 * elicit's type, then resolved to the node that records it. The chat prompt's answer is the user's
 * message; any other elicit's answer is the `response` node its turn writes, authored by
 * `authorId`. An elicit whose answer is already recorded is answered with that node again
 * (idempotent by elicit id); one that waits no more says so (409), one never asked is not found.
 */
export class RunnerAnswers {
  /** who waits for a node (an answer's, or any) to be stored */
  readonly waiters = new AnswerWaiters();

  constructor(private readonly runner: AnsweringRunner) {}

  async respond(answer: ElicitAnswer, authorId: string): Promise<Result<TreeNode, RunnerError>> {
    const runner = this.runner;
    const path = runner.path();
    const recorded = recordedAnswer(path, answer.elicitId);
    if (recorded) {
      // Sent again (a retry, a second tab), it is acknowledged with the first answer; other words
      // for a prompt already answered are not that answer, and must not vanish into it.
      if (!sameWords(recorded, answer)) return err(notWaiting(path, answer.elicitId));
      // Acknowledged only once stored, like the first answer.
      await runner.drained();
      return ok(recorded);
    }
    if (answer.elicitId.startsWith('chat-')) {
      // A runner rebuilt after an idle close or a restart re-runs its last turn from the tree; the
      // turn ends where it ended before, at the HEAD whose prompt the person is answering. Until
      // it gets there (or goes on and moves HEAD), the prompt is not yet asked again, nor stale.
      if (runner.turnRunning() && answer.elicitId === chatElicitId(runner.head() ?? ''))
        await this.untilIdleOrMoved();
      const head = runner.head();
      if (runner.turnRunning() || !head || answer.elicitId !== chatElicitId(head))
        return err(notWaiting(runner.path(), answer.elicitId));
      const message = chatMessage(answer);
      return message.ok ? runner.send({ ...message.value, authorId }) : message;
    }
    await this.untilHeld(answer.elicitId);
    const recordedNode = this.waiters.whenRecorded(answer.elicitId);
    const answered = runner.elicits.answer(answer, authorId);
    if (!answered.ok) {
      recordedNode.cancel();
      // A question that waits no more (the person left its branch, or a Stop withdrew it) says so.
      return err(answered.error.code === 'not_found' ? notWaiting(path, answer.elicitId) : answered.error);
    }
    // The turn ends without recording it when the conversation moved under the runner (a
    // compaction landed, another tab rewound): the answer was not taken.
    const node = await Promise.race([recordedNode.promise, runner.whenIdle().then(() => undefined)]);
    recordedNode.cancel();
    return node
      ? ok(node)
      : err({
          code: 'conflict',
          message: 'the conversation moved before the answer was stored; answer again',
        });
  }

  /**
   * What a question's widget reports while the person works on it. A quick tap (the location
   * shared the moment its card shows) may send it before the turn holds the question, like an
   * answer: it waits for that too, so the agent hears it.
   */
  async progress(elicitId: string, payload: Json): Promise<Result<void, AnswerError>> {
    await this.untilHeld(elicitId);
    return this.runner.elicits.progress(elicitId, payload);
  }

  /** Resolves when the running turn ends or next moves HEAD, whichever comes first. */
  private async untilIdleOrMoved(): Promise<void> {
    const moved = this.waiters.whenStored();
    await Promise.race([moved.promise, this.runner.whenIdle()]);
    moved.cancel();
  }

  /**
   * Waits while the running turn has asked `elicitId` (its node is written, so a client may know
   * the id), or its record did, but its implementation does not hold it yet; returns at once
   * otherwise, or when the turn ends first.
   */
  private async untilHeld(elicitId: string): Promise<void> {
    const runner = this.runner;
    if (!runner.turnRunning()) return;
    // A runner rebuilt after an idle close re-runs its turn: a card the person taps was asked in
    // its record, and is asked again once the replay gets there (a model call, a tool or two on).
    const asked =
      runner.path().some((n) => n.kind === 'elicit' && n.payload['elicitId'] === elicitId) ||
      runner.openInRecord().includes(elicitId);
    if (asked) await this.whenAsked(elicitId);
  }

  /**
   * Resolves once the running turn holds `elicitId` (a rebuilt turn asking its open question again,
   * or one asked a moment ago), or when the turn ends first; at once when no turn runs.
   */
  async whenAsked(elicitId: string): Promise<void> {
    const runner = this.runner;
    if (!runner.turnRunning() || runner.elicits.has(elicitId)) return;
    const held = runner.elicits.whenPending(elicitId);
    await Promise.race([held.promise, runner.whenIdle()]);
    held.cancel();
  }
}
