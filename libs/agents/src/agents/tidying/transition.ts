import { err, ok, type Result } from '@sweatpants/domain';
import { distribute } from './categories';
import type { Extract } from './observation';
import {
  activeOf,
  anchorsOf,
  currentItemOf,
  functionOf,
  lastAnxietyOf,
  mkDecisionSupport,
  mkRefining,
  mkSplitting,
  type ActiveState,
  type InvalidPhase,
  type Phase,
  type PhaseData,
  type Piles,
  type RefiningData,
  type SessionState,
  type SortingData,
} from './session-state';
import type { Action } from './tidying-action';
import type { CategoryName, ItemName } from './tidying-types';

/**
 * The state transition of a decided turn (seed 000's applyStateTransitionFromExtract), pure: the
 * reducer applies it to every `action-taken` event, so the session is the fold of its decisions.
 * Items move between piles, the phase data is rebuilt for the next phase (unsure items are
 * distributed to the emergent categories on entering refining), and the session start is set on
 * the first turn. A combination the phases cannot hold is refused with the reason.
 */
export function applyDecision(
  state: SessionState,
  extract: Extract,
  action: Action,
  nextPhase: Phase,
  at: string,
): Result<SessionState, InvalidPhase> {
  const item = extract.item ?? currentItemOf(state);
  const piles = pilesAfter(state.piles, action, item);
  const processed = PROCESSING.has(action.tag) ? 1 : 0;
  const phaseData = phaseDataAfter(state, extract, action, nextPhase, item, piles.unsure);
  if (!phaseData.ok) return phaseData;
  return ok({
    phaseData: phaseData.value,
    // entering refining moves the unsure pile into the categories
    piles:
      nextPhase === 'refining' && state.phaseData.phase === 'splitting' ? { ...piles, unsure: [] } : piles,
    itemsProcessed: state.itemsProcessed + processed,
    sessionStart: state.sessionStart ?? at,
    ended: state.ended || action.tag === 'summary',
  });
}

const PROCESSING = new Set<Action['tag']>(['instruct-trash', 'instruct-place', 'instruct-unsure']);

function pilesAfter(piles: Piles, action: Action, item: ItemName | null): Piles {
  if (!item) return piles;
  const without = (pile: readonly ItemName[]) => pile.filter((i) => i !== item);
  switch (action.tag) {
    case 'instruct-trash':
      return {
        belongs: without(piles.belongs),
        out: [...without(piles.out), item],
        unsure: without(piles.unsure),
      };
    case 'instruct-place':
      return {
        belongs: [...without(piles.belongs), item],
        out: without(piles.out),
        unsure: without(piles.unsure),
      };
    case 'instruct-unsure':
      return {
        belongs: without(piles.belongs),
        out: without(piles.out),
        unsure: [...without(piles.unsure), item],
      };
    default:
      return piles;
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
  item: ItemName | null,
  unsure: readonly ItemName[],
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
    action.tag === 'ask-item-decision' ? action.item : action.tag === 'ask-what-is-it' ? extract.item : null;

  switch (nextPhase) {
    case 'sorting':
      return ok({ phase: 'sorting', active: active.value, currentItem: focus });
    case 'splitting':
      if (action.tag !== 'instruct-split')
        return err({
          code: 'invalid_phase',
          message: 'splitting starts only with the categories to split into',
        });
      return mkSplitting(active.value, action.categories);
    case 'refining':
      return refiningAfter(state, active.value, action, item, focus, unsure);
    case 'decision-support': {
      if (action.tag !== 'decision-aid')
        return err({ code: 'invalid_phase', message: 'decision support starts only on a stuck item' });
      const resume = resumable(current, active.value);
      if (!resume)
        return err({ code: 'invalid_phase', message: `nothing to come back to from ${current.phase}` });
      return mkDecisionSupport(active.value, action.item, resume);
    }
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
      return null;
  }
}

function refiningAfter(
  state: SessionState,
  active: ActiveState,
  action: Action,
  decidedItem: ItemName | null,
  focus: ItemName | null,
  unsure: readonly ItemName[],
): Result<RefiningData, InvalidPhase> {
  const current = state.phaseData;
  if (current.phase === 'splitting') {
    const categories = distribute(unsure, current.categories);
    return mkRefining(active, categories, current.categories[0], focus);
  }
  const base =
    current.phase === 'refining' ? current : current.phase === 'decision-support' ? current.resume : null;
  if (!base || base.phase !== 'refining')
    return err({ code: 'invalid_phase', message: `refining follows splitting, not ${current.phase}` });
  // A decided item leaves its category; the current category moves on once it is empty.
  const decided = PROCESSING.has(action.tag) ? decidedItem : null;
  const categories = new Map<CategoryName, readonly ItemName[]>(
    [...base.emergentCategories].map(([c, items]) => [c, items.filter((i) => i !== decided)]),
  );
  const stillHere = (categories.get(base.currentCategory) ?? []).length > 0;
  const nextCategory = stillHere
    ? base.currentCategory
    : ([...categories].find(([, items]) => items.length > 0)?.[0] ?? base.currentCategory);
  return mkRefining(activeOf(state) ? active : base.active, categories, nextCategory, focus);
}
