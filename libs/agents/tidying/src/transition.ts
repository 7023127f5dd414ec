import { err, ok, type Result } from '@sweatpants/domain';
import { distribute } from './categories';
import { sessionFor } from './decide';
import type { Extract } from './observation';
import { placementOf, type Placement, type Space } from './pile-placement';
import {
  anchorsOf,
  currentItemOf,
  endedFrom,
  functionOf,
  isPartOf,
  lastAnxietyOf,
  mkDecisionSupport,
  mkRefining,
  mkSplitting,
  spaceOf,
  withSeen,
  type ActiveState,
  type InvalidPhase,
  type Phase,
  type PhaseData,
  type RefiningData,
  type SessionState,
  type SortingData,
} from './session-state';
import { sortItem, toldInParts, unsortItem } from './sort-item';
import type { Action, SortedToo } from './tidying-action';
import type { ItemName } from './tidying-types';

/**
 * The state transition of a decided turn (seed 000's applyStateTransitionFromExtract), pure: the
 * reducer applies it to every `action-taken` event, so the session is the fold of its decisions.
 * The phase data is rebuilt for the next phase (the unsure pile is distributed over the emergent
 * categories on entering refining), an item the action decides moves piles through `sortItem`
 * (as a one-tap card's does), and the session start is set on the first turn. A summary ends the
 * session; any other decision after the end carries it on, piles kept, unless the person asked
 * for a new one (`sessionFor`). A combination the phases cannot
 * hold is refused with the reason.
 */
export function applyDecision(
  before: SessionState,
  extract: Extract,
  action: Action,
  nextPhase: Phase,
  at: string,
): Result<SessionState, InvalidPhase> {
  if (nextPhase === 'ended' || action.tag === 'summary')
    return ok({ ...before, phaseData: endedFrom(before), sessionStart: before.sessionStart ?? at });
  // What the words named is among the things to go through: one now, the rest after; some of the
  // thing in question told apart ("the big one I never use") right after it, the others in turn.
  const named = extract.item;
  const parts = named ? extract.also.filter((thing) => isPartOf(thing, named)) : [];
  const others = extract.also.filter((thing) => !parts.includes(thing));
  const state = withSeen(
    withSeen(sessionFor(before, extract), [...(named ? [named] : []), ...others]),
    parts,
    named ?? undefined,
  );
  const item = extract.item ?? currentItemOf(state);
  const phaseData = phaseDataAfter(state, extract, action, nextPhase);
  if (!phaseData.ok) return phaseData;
  const next: SessionState = { ...state, phaseData: phaseData.value, sessionStart: state.sessionStart ?? at };
  if (action.tag === 'ask-item-decision' && action.reopened) return ok(unsortItem(next, action.item));
  const space = spaceOf(next);
  const placement = placementOfAction(action, space);
  const sorted = placement && item ? sortItem(next, item, placement) : next;
  // the further things the same words sorted land after it, in the order they were said
  const rest = 'alsoSorted' in action ? (action.alsoSorted ?? []) : [];
  const landed = rest.reduce((after, too) => {
    const where = placementOfAction(too, space);
    return where ? sortItem(after, too.item, where) : after;
  }, sorted);
  return ok('partsOf' in action && action.partsOf ? toldInParts(landed, action.partsOf) : landed);
}

/** Where an instruction puts the item in question; null for actions that decide nothing. */
function placementOfAction(action: Action | SortedToo, space: Space): Placement | null {
  switch (action.tag) {
    case 'instruct-trash':
      return placementOf({ kind: 'trash' }, space);
    case 'instruct-place':
      return placementOf({ kind: 'place', location: action.location }, space);
    case 'instruct-unsure':
      return placementOf({ kind: 'skip' }, space);
    default:
      return null;
  }
}

/** The shared fields after this turn's extract: function, anchors, the latest anxiety. */
function activeAfter(
  state: SessionState,
  extract: Extract,
  action: Action,
): Result<ActiveState, InvalidPhase> {
  const fn = extract.function ?? functionOf(state);
  if (!fn)
    return err({
      code: 'invalid_phase',
      message: 'a session past surveying needs to know what the space is for',
    });
  const anxiety = action.tag === 'pivot-away' ? action.trigger : (extract.anxiety ?? lastAnxietyOf(state));
  return ok({ function: fn, anchors: extract.anchors ?? anchorsOf(state), lastAnxiety: anxiety });
}

function phaseDataAfter(
  state: SessionState,
  extract: Extract,
  action: Action,
  nextPhase: Phase,
): Result<PhaseData, InvalidPhase> {
  const current = state.phaseData;
  if (nextPhase === 'surveying') {
    if (current.phase !== 'surveying')
      return err({
        code: 'invalid_phase',
        message: `a session does not go back to surveying from ${current.phase}`,
      });
    return ok({
      phase: 'surveying',
      gatheredFunction: extract.function ?? current.gatheredFunction,
      gatheredAnchors: extract.anchors ?? current.gatheredAnchors,
    });
  }
  const active = activeAfter(state, extract, action);
  if (!active.ok) return active;
  const focus =
    action.tag === 'ask-item-decision' || action.tag === 'back-to-card'
      ? action.item
      : action.tag === 'ask-what-is-it'
        ? extract.item
        : null;

  switch (nextPhase) {
    case 'sorting':
      return ok({ phase: 'sorting', active: active.value, currentItem: focus });
    case 'splitting':
      if (action.tag !== 'instruct-split')
        return err({
          code: 'invalid_phase',
          message: 'splitting starts only with the categories to split into',
        });
      return mkSplitting(active.value, action.categories, action.assignment);
    case 'refining':
      return refiningAfter(state, active.value, focus);
    case 'decision-support': {
      if (action.tag !== 'decision-aid')
        return err({ code: 'invalid_phase', message: 'decision support starts only on a stuck item' });
      const resume = resumable(current, active.value);
      if (!resume)
        return err({ code: 'invalid_phase', message: `nothing to come back to from ${current.phase}` });
      return mkDecisionSupport(active.value, action.item, resume);
    }
    case 'ended':
      return ok(endedFrom(state));
  }
}

/** The sorting or refining data a stuck item returns to. */
function resumable(current: PhaseData, active: ActiveState): SortingData | RefiningData | null {
  switch (current.phase) {
    case 'sorting':
    case 'refining':
      return { ...current, active };
    case 'decision-support':
      return { ...current.resume, active };
    case 'surveying':
    case 'splitting':
    case 'ended':
      return null;
  }
}

function refiningAfter(
  state: SessionState,
  active: ActiveState,
  focus: ItemName | null,
): Result<RefiningData, InvalidPhase> {
  const current = state.phaseData;
  if (current.phase === 'splitting') {
    // the items stay on the unsure pile: the categories are the order to go through them in
    const categories = distribute(state.piles.unsure, current.categories, current.assignment);
    const first = current.categories.find((c) => (categories.get(c) ?? []).length > 0);
    return mkRefining(active, categories, first ?? current.categories[0], focus);
  }
  const base =
    current.phase === 'refining' ? current : current.phase === 'decision-support' ? current.resume : null;
  if (!base || base.phase !== 'refining')
    return err({ code: 'invalid_phase', message: `refining follows splitting, not ${current.phase}` });
  return ok({ ...base, active, currentItem: focus });
}
