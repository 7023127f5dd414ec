import {
  QUESTION_SETTLED,
  toJsonObject,
  type ElicitRequest,
  type ElicitResponse,
  type ElicitType,
  type Json,
  type TreeNode,
} from '@sweatpants/domain';
import { createContext, race, sleep, withResolvers, type Operation } from 'effection';
import type { RunContext } from './context';
import { ElicitProtocol } from './elicit-protocol';
import type { Outbox } from './outbox';

/**
 * An answer, or the note that none came in time. `answeredBy` (a user id, when the implementation
 * knows who answered) becomes the author of the `response` node; it is not part of the payload.
 */
export type Elicited<T extends ElicitType = ElicitType> = ElicitResponse<T> & {
  timedOut?: true;
  answeredBy?: string;
};

/** A question waiting live for its answer, and how to set it aside. */
interface Waiting {
  request: ElicitRequest;
  setAside: () => void;
}

/** The questions each runner waits on live, by the outbox of the runner that asked them. */
const waiting = new WeakMap<Outbox, Set<Waiting>>();

/** Collects the ids of the questions asked in its scope, to set aside later if moot (`setAsideAsked`). */
export const QuestionsAsked = createContext<Set<string> | null>('sweatpants.questions-asked', null);

/**
 * Sets aside, as declined (the person's "Skip this"), each question of `elicitIds` still waiting
 * live: questions another's answer made moot, such as the donation helper's offer for a thing the
 * coach's card has just sent to the sell pile. Its asker is not stopped; an answered one is left.
 *
 * @example
 * const asked = new Set<string>();
 * yield* QuestionsAsked.with(asked, () => helper({ item }));
 * setAsideAsked(run, asked);
 */
export function setAsideAsked(run: RunContext, elicitIds: ReadonlySet<string>): void {
  for (const question of [...(waiting.get(run.outbox) ?? [])])
    if (elicitIds.has(question.request.elicitId)) question.setAside();
}

/**
 * Sends the elicit to whichever implementation is in force and waits for the answer, or for the
 * rest of its timeout (counted from when it was first asked, so a restart does not extend it), or
 * until the person sets it aside by what they said at another question (`setAsideWaiting`).
 */
export function* waitForAnswer(
  run: RunContext,
  request: ElicitRequest,
  asked: TreeNode<'elicit'>,
  onProgress: ((payload: Json) => void) | undefined,
): Operation<Elicited> {
  const handle = yield* ElicitProtocol.attach();
  (yield* QuestionsAsked.get())?.add(request.elicitId);
  run.outbox.elicit(request, asked.id);
  const aside = withResolvers<Elicited>();
  const mine: Waiting = { request, setAside: () => aside.resolve({ action: 'decline' }) };
  const live = waiting.get(run.outbox) ?? new Set<Waiting>();
  waiting.set(run.outbox, live.add(mine));
  run.outbox.status('waiting');
  let settled: string | undefined;
  try {
    const answer = handle.call('elicit', request, (progress) =>
      onProgress?.(progress.payload),
    ) as Operation<Elicited>;
    const remaining =
      request.timeoutMs === undefined
        ? undefined
        : Math.max(0, Date.parse(asked.createdAt) + request.timeoutMs - Date.now());
    const response: Elicited = yield* race([
      answer,
      (function* (): Operation<Elicited> {
        const setAside = yield* aside.operation;
        settled = 'set-aside';
        return setAside;
      })(),
      ...(remaining === undefined
        ? []
        : [
            (function* (): Operation<Elicited> {
              yield* sleep(remaining);
              settled = 'timeout';
              return { action: 'cancel', timedOut: true };
            })(),
          ]),
    ]);
    // An answer that came in: nothing to withdraw. Otherwise the person's card goes, saying why.
    if (settled) run.outbox.withdrawn(request.elicitId, settled);
    settled ??= 'answered';
    return response;
  } finally {
    if (!settled) run.outbox.withdrawn(request.elicitId, 'cancelled');
    live.delete(mine);
    // Another question asked at once still waits: the conversation still waits on the person.
    if (live.size === 0) run.outbox.status('running');
  }
}

/**
 * The askers the person stopped for the rest of the turn ("I'm done" said at one of their
 * questions: ./set-question-aside with `all`). Their later questions in the turn are not asked:
 * each returns declined at once (`stoppedAsking`). A new set for each turn (./turn-chain), which its
 * side quests share; none outside a turn chain, where nothing is remembered.
 */
export const StoppedAskers = createContext<Set<string> | null>('sweatpants.stopped-askers', null);

/**
 * The person wants to stop with `askedBy` (the same agent) for the rest of the turn: every question
 * it waits on live, but `except`, returns to it as declined, as the person's "Skip this" would, and
 * it asks nothing more this turn. A person who types "I'm done" at one of an agent's questions is
 * done with the others it asks in the same turn, not with another agent's.
 */
export function* stopAsking(run: RunContext, askedBy: string | undefined, except: string): Operation<void> {
  (yield* StoppedAskers.expect())?.add(askedBy ?? '');
  for (const question of [...(waiting.get(run.outbox) ?? [])]) {
    if (question.request.askedBy === askedBy && question.request.elicitId !== except) question.setAside();
  }
}

/** Whether the person stopped `askedBy` earlier in this turn (`stopAsking`). */
export function* stoppedAsking(askedBy: string | undefined): Operation<boolean> {
  return (yield* StoppedAskers.expect())?.has(askedBy ?? '') ?? false;
}

/**
 * Records that the side quest's turn settled the question `elicitId` (QUESTION_SETTLED), or,
 * replaying, takes the event its first run recorded (after what other askers of the turn recorded
 * before it). Words `replayed` from a record made before these events were written have none
 * after them: nothing is added in the middle of that record. Words heard live are recorded after
 * whatever other askers still replay.
 */
export function* recordSettled(
  run: RunContext,
  elicitId: string,
  answer: ElicitResponse,
  replayed: boolean,
): Operation<void> {
  const ours = (n: TreeNode<'event'>) =>
    n.payload['type'] === QUESTION_SETTLED && n.payload['elicitId'] === elicitId;
  const recorded = yield* run.journal.takeWhenReached('event', `the settling of ${elicitId}`, ours);
  if (recorded || (replayed && run.journal.replaying)) return;
  yield* run.journal.replayed();
  const payload = toJsonObject({ type: QUESTION_SETTLED, elicitId, ...answer });
  yield* run.journal.append([{ kind: 'event', payload, authorId: run.authorId }]);
}
