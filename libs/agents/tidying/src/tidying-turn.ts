import {
  ElicitTypes,
  NodePayloadSchemas,
  toJson,
  type Disposition,
  type ElicitRequest,
  type Json,
  type TreeNode,
} from '@sweatpants/domain';
import type { Operation } from 'effection';
import * as z from 'zod';
import {
  type AgentDefinition,
  Asides,
  Run,
  modeStateOf,
  log,
  stopAsking,
  type TurnEnd,
} from '@sweatpants/agent-runtime';
import { mayBePartOf } from './categories';
import { act, proposeAtOnce, switchMode, tell, type ProposalFor } from './act';
import { isSpaceFunctionQuestion, spaceFunctionIn } from './disposition-tools';
import { sortedTooWords, sortingInstruction, type Action, type SortedToo } from './tidying-action';
import { decide, decisionsIn, readAfterEnd, type Decision } from './decide';
import { parsePhotoAnalysis, type Extract, type PhotoAnalysis } from './observation';
import { analyzePhotos, extractFromInput, groupUnsurePile, type Reading, type UserInput } from './perception';
import { currentSession, recordDecision } from './session-io';
import {
  currentItemOf,
  decidedItemsOf,
  isOnAPile,
  itemsProcessedOf,
  nextSeenOf,
  type SessionState,
} from './session-state';
import { latestEvent, parseDecisionEvent, recordEvent } from './tidying-events';
import { modeFor } from './tidying-modes';
import { mkItemName, mkSpaceFunction, orNull, type ItemName } from './tidying-types';
import { sameDisposition } from './question';

/** A user message as the turn reads it: its words, its photos, and whether a tool wrote it. */
const UserInputSchema = NodePayloadSchemas.user.extend({ synthetic: z.boolean().optional() });

/**
 * The coach's turn (seed 000's tidyingTurn), the OODA loop as the agent's own turn:
 * OBSERVE the photos, ORIENT by extracting facts from the words, DECIDE purely from the session,
 * the photo analysis and the extract, record the decision (the fold applies it, so the state is
 * updated before the reply, and counts are accurate), then ACT. A synthetic message (a transition
 * tool switched mode) skips straight to acting in the new mode on the decision the tool recorded.
 */
export function* tidyingTurn(agent: AgentDefinition): Operation<TurnEnd> {
  const run = yield* Run.expect();
  const path = run.journal.path();
  const aside = yield* Asides.expect();
  // A side quest runs on the words said aside; any other turn on the last message.
  const input = aside
    ? { text: aside.said.text, photos: aside.said.photos ?? [], synthetic: false, aside: true }
    : inputOf(path);

  if (input.synthetic) {
    const state = yield* currentSession();
    return yield* act(
      agent,
      state,
      lastDecision(path)?.action ?? { tag: 'instruct-next' },
      lastPhoto(path),
      '',
    );
  }

  yield* recordEvent({ type: 'user-input-received', text: input.text });
  const before = yield* currentSession();
  const photo = yield* analyzePhotos(input);
  const reading = yield* extractFromInput(before, photo, input, lastReply(path));
  const extract = readAfterEnd(before, photo, reading.extract);
  let decision: Decision = decide(before, photo, extract);
  // Said aside, and deciding the waiting card's item after all ("the lamp? bin it"): that is the
  // card's answer, so the card is settled with it (its tool records it) rather than asked again
  // about an item this turn would have sorted.
  // (Words that also name more to come, "most of them are fine but a few pairs hurt my feet",
  // take the turn's own way, which notes the few; the card is settled once its thing is on a pile.)
  const settles =
    aside && !namesMoreToCome(before, extract)
      ? cardSettledBy(decision.action, extract, aside.question)
      : null;
  if (aside && settles) {
    // The other things the same words sorted land too, and are said: the card's own reply that
    // follows names only its item.
    yield* landFirst(settles.others, decision, extract);
    aside.settle({ action: 'accept', content: settles.answer });
    return { kind: 'done' };
  }
  // Before the space's purpose is known (asked, or asked again), the things the words decided
  // land all the same ("the clothes go in the wardrobe"), and are said; and said at the space's
  // card with its purpose ("sleeping mostly, and …"), the card is answered with it (which the
  // things land knowing: a wardrobe is in the bedroom).
  if (before.phaseData.phase === 'surveying' && SORTS_NOTHING.has(decision.action.tag)) {
    const given =
      aside && isSpaceFunctionQuestion(aside.question)
        ? spaceFunctionIn(aside.question, extract.function, input.text)
        : null;
    const purpose = given ? orNull(mkSpaceFunction(given.purpose)) : null;
    const landing = { ...extract, function: extract.function ?? purpose };
    const decided = decisionsIn(extract);
    yield* landFirst(decided, { ...decision, nextPhase: 'surveying' }, landing);
    // "it's where I work, the laptop obviously stays": what stays for sure is kept, with nothing
    // to land, before the card is answered (its answer's turn reads the session, not these words)
    if (aside && given && decided.length === 0 && extract.anchors?.length)
      yield* recordDecision({ ...decision, nextPhase: 'surveying' }, landing);
    if (aside && given) {
      aside.settle({ action: 'accept', content: given.answer });
      return { kind: 'done' };
    }
  }
  // Said aside while a question waits (a side quest) and asking nothing of the session: it is
  // answered, and the question comes back after it. Asked at the prompt ("how many are left?"),
  // a question is answered too, not met with "What's next?".
  if (input.aside && decision.action.tag === 'instruct-next')
    decision = { action: { tag: 'answer-aside' }, nextPhase: before.phaseData.phase };
  else if (decision.action.tag === 'instruct-next' && /\?\s*$/.test(input.text))
    decision = { action: { tag: 'answer-question' }, nextPhase: before.phaseData.phase };
  // Said aside, what the waiting card asks about ("the clothes" typed at the clothes' card, or
  // anything said before the space's purpose is known): the card is pointed to, not asked again
  // below itself.
  if (aside && asksAgain(decision.action, aside.question))
    decision = {
      action: {
        tag: 'back-to-card',
        item: decision.action.tag === 'ask-item-decision' ? decision.action.item : null,
      },
      nextPhase: before.phaseData.phase,
    };
  // Told all in its parts at its card ("bills on the side table, flyers in the recycling" at the
  // post's): the parts land and the thing is done, so its card is settled rather than asked again
  // about a rest there is none of.
  const inParts = aside ? toldInPartsAt(before, decision.action, extract, aside.question) : null;
  if (inParts) decision = { ...decision, action: inParts };
  // The unsure pile splits into groups drawn from its own things (the model's; by kind offline).
  if (decision.action.tag === 'instruct-split') {
    const drawn = yield* groupUnsurePile(before.piles.unsure);
    if (drawn) decision = { ...decision, action: { ...decision.action, ...drawn } };
  }
  let recorded = yield* recordDecision(decision, extract);
  if (!recorded.ok) {
    // decide only routes to phases it can fill; reaching here is a bug, not the user's problem.
    yield* log('error', 'tidying: a decision the phases refuse; asking for the next thing', {
      reason: recorded.message,
    });
    decision = { action: { tag: 'instruct-next' }, nextPhase: before.phaseData.phase };
    recorded = yield* recordDecision(decision, extract);
    if (!recorded.ok) return { kind: 'failed', code: 'invalid_phase' };
  }
  const state = recorded.state;
  if (aside && inParts && decision.action === inParts) aside.settle({ action: 'decline' });
  if (decision.action.tag === 'summary') {
    yield* recordEvent({ type: 'session-ended', itemsProcessed: itemsProcessedOf(state) });
    // "I'm done" said at a card ends the session: the card is set aside with it, not asked again
    // under the recap.
    aside?.settle({ action: 'decline' });
  }

  const current = modeStateOf(agent, run.journal.path()).mode;
  const target = modeFor(decision.action, decision.nextPhase);
  if (target !== current)
    yield* switchMode(agent, current, { mode: target, data: modeData(target, state, decision) });

  // The item's card was readied with the reading of the words: it is asked with no second call.
  const proposal = proposalFor(decision.action, extract.item ?? nextSeenOf(before), reading.proposal);
  if (proposal) {
    const proposed = yield* proposeAtOnce(proposal);
    if (proposed) return proposed;
  }
  const thing = aside ? cardItem(aside.question) : null;
  const waiting = aside ? { about: thing } : null;
  const end = yield* act(agent, state, decision.action, photo ?? lastPhoto(path), input.text, waiting);
  // Stuck at a card ("it might fit again one day"): decision support asked about the thing on a
  // card of its own, and the person decided there. The card the words were said at is settled, not
  // asked again about a thing already on a pile.
  if (aside && thing && !isOnAPile(before, thing) && isOnAPile(yield* currentSession(), thing))
    aside.settle({ action: 'decline' });
  // Ended at a card asked in a side quest: the card that side quest was about is not asked again
  // under the recap either.
  if (aside && decision.action.tag === 'summary')
    yield* stopAsking(run, aside.question.askedBy, aside.question.elicitId);
  return end;
}

/** What a surveying turn does that sorts no thing of its own. */
const SORTS_NOTHING: ReadonlySet<Action['tag']> = new Set([
  'ask-function',
  'ask-anchors',
  'first-instruction',
]);

/**
 * Records the things `sorted` decides, before the turn's own decision (in `decided`'s phase), and
 * says them: the reply that follows names only what the turn itself is about.
 */
function* landFirst(sorted: readonly SortedToo[], decided: Decision, extract: Extract): Operation<void> {
  const [first, ...rest] = sorted;
  if (!first) return;
  const recorded = yield* recordDecision(
    { action: sortingInstruction(first, rest), nextPhase: decided.nextPhase },
    { ...extract, item: first.item, also: [], alsoDecided: [] },
  );
  if (recorded.ok) yield* tell(sortedTooWords({ alsoSorted: sorted }).trim(), 'also-sorted');
  else yield* log('error', 'tidying: the other things decided were refused', { reason: recorded.message });
}

/**
 * The proposal to ask with, when the turn asks about the very item the words named and the
 * reading came with one; null otherwise (the act call proposes then).
 */
function proposalFor(
  action: Action,
  named: ItemName | null,
  proposal: Reading['proposal'],
): ProposalFor | null {
  if (!proposal || action.tag !== 'ask-item-decision' || named === null) return null;
  if (named.toLowerCase() !== action.item.toLowerCase()) return null;
  return { item: action.item, ...proposal };
}

/** Whether the action would ask what `waiting` already asks: about the same item, or the space's purpose. */
function asksAgain(action: Action, waiting: ElicitRequest): boolean {
  if (action.tag === 'ask-function') return isSpaceFunctionQuestion(waiting);
  return action.tag === 'ask-item-decision' && cardItem(waiting)?.toLowerCase() === action.item.toLowerCase();
}

/**
 * The waiting card's answer among what the words decided, with the other things they sorted: the
 * turn's own decision, or a further one ("keep the bills, bin the rest" at the mail's card: the
 * rest is the mail). Null when the words decide nothing about the card's item.
 */
function cardSettledBy(
  action: Action,
  extract: Extract,
  waiting: ElicitRequest,
): { answer: { disposition: Json; wasCorrection: boolean }; others: readonly SortedToo[] } | null {
  const own = cardAnswerIn(action, extract.item, waiting);
  if (own) return { answer: own, others: 'alsoSorted' in action ? (action.alsoSorted ?? []) : [] };
  const sorted = decisionsIn(extract);
  for (const [i, too] of sorted.entries()) {
    const answer = cardAnswerIn(too, too.item, waiting);
    if (answer) return { answer, others: sorted.filter((_, j) => j !== i) };
  }
  return null;
}

/** Whether the words name things to come that the session has not met yet. */
function namesMoreToCome(before: SessionState, extract: Extract): boolean {
  const known = new Set([...before.seen, ...decidedItemsOf(before)].map((i) => i.toLowerCase()));
  return extract.also.some((thing) => !known.has(thing.toLowerCase()));
}

/**
 * The turn's instruction as the waiting card's thing told all in its parts, when the words said at
 * its card sort two or more things, each new to the session and of the thing ("bills on the side
 * table, flyers in the recycling" at the post's card); null otherwise. One part alone leaves the
 * rest of the thing to its card; a thing seen before, or of another kind ("the stapler" at the
 * papers' card), is no part of it.
 */
function toldInPartsAt(
  before: SessionState,
  action: Action,
  extract: Extract,
  waiting: ElicitRequest,
): Action | null {
  const thing = cardItem(waiting);
  if (!thing || !extract.item) return null;
  if (action.tag !== 'instruct-place' && action.tag !== 'instruct-trash' && action.tag !== 'instruct-unsure')
    return null;
  const sorted = [extract.item, ...(action.alsoSorted ?? []).map((too) => too.item)];
  const known = new Set(
    [thing, ...before.seen, ...decidedItemsOf(before), ...before.piles.unsure].map((i) => i.toLowerCase()),
  );
  const parts = sorted.filter((item) => !known.has(item.toLowerCase()) && mayBePartOf(item, thing));
  return parts.length >= 2 && parts.length === sorted.length ? { ...action, partsOf: thing } : null;
}

/**
 * The answer to the waiting proposal card that `action` gives, when it decides the card's item
 * (named, or unnamed: the card's is the item in question): its disposition, and whether that
 * corrects the card's proposal. Null for any other action, or another item.
 */
function cardAnswerIn(
  action: Action,
  named: ItemName | null,
  waiting: ElicitRequest,
): { disposition: Json; wasCorrection: boolean } | null {
  const item = cardItem(waiting);
  if (!item || (named !== null && named.toLowerCase() !== item.toLowerCase())) return null;
  const disposition: Disposition | null =
    action.tag === 'instruct-trash'
      ? { kind: 'trash' }
      : action.tag === 'instruct-place'
        ? { kind: 'place', location: action.location }
        : action.tag === 'instruct-unsure'
          ? { kind: 'skip' }
          : null;
  if (!disposition) return null;
  const card = ElicitTypes['propose-disposition'].payload.safeParse(waiting.payload);
  const proposed = card.success ? card.data.choices[0]?.disposition : undefined;
  return {
    disposition: toJson(disposition),
    wasCorrection: proposed === undefined || !sameDisposition(proposed, disposition),
  };
}

/** The item a waiting proposal card asks about, as the session names items; null for other questions. */
function cardItem(question: ElicitRequest): ItemName | null {
  if (question.type !== 'propose-disposition') return null;
  const card = ElicitTypes['propose-disposition'].payload.safeParse(question.payload);
  const item = mkItemName(card.success ? card.data.item : '');
  return item.ok ? item.value : null;
}

/** The turn's input: the last user message (the agent's own, after a transition, is synthetic). */
function inputOf(path: readonly TreeNode[]): UserInput & { synthetic: boolean; aside: boolean } {
  const node = path.findLast((n) => n.kind === 'user');
  const parsed = UserInputSchema.safeParse(node?.payload);
  const p = parsed.success ? parsed.data : undefined;
  return { text: p?.text ?? '', photos: p?.photos ?? [], synthetic: p?.synthetic === true, aside: false };
}

function lastDecision(path: readonly TreeNode[]) {
  const event = latestEvent(path, 'action-taken');
  return event ? parseDecisionEvent(event) : null;
}

/** The latest photo analysis on the path: the room does not change between photos. */
function lastPhoto(path: readonly TreeNode[]): PhotoAnalysis | null {
  const event = latestEvent(path, 'photo-analyzed');
  return event ? parsePhotoAnalysis(event.analysis) : null;
}

function lastReply(path: readonly TreeNode[]): string | null {
  return latestEvent(path, 'response-generated')?.text || null;
}

function modeData(mode: string, state: SessionState, decision: Decision): { [key: string]: Json } {
  switch (mode) {
    case 'decision-support':
    case 'clarifying':
      return {
        item: ('item' in decision.action ? decision.action.item : currentItemOf(state)) ?? 'this item',
        reason: 'the user asked for help',
      };
    case 'winding-down':
      return { reason: 'the user wants to stop' };
    default:
      return {};
  }
}
