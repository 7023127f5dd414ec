import {
  err,
  ok,
  TidyingStateSchema,
  type Result,
  type TidyingPhaseData,
  type TidyingState,
} from '@sweatpants/domain';
import {
  mkActiveState,
  mkDecisionSupport,
  mkRefining,
  mkSplitting,
  anchorsOf,
  functionOf,
  isEnded,
  itemsProcessedOf,
  type ActiveState,
  type PhaseData,
  type RefiningData,
  type SessionState,
  type SortingData,
} from './session-state';
import {
  allOf,
  mkCategoryName,
  mkItemName,
  mkLocation,
  mkSpaceFunction,
  orNull,
  assignmentOf,
  type CategoryName,
  type ItemName,
  type Location,
} from './tidying-types';

/**
 * The session on the wire (libs/domain's TidyingState) and back. `toWire` derives the phase, the
 * count of processed items, whether it ended, and the flat fields PROTOCOL.md promises; `fromWire`
 * rebuilds the typed session through the smart
 * constructors, so a stored snapshot that breaks an invariant is refused, not trusted.
 */
export function toWire(state: SessionState): TidyingState {
  const fn = functionOf(state);
  return {
    phase: state.phaseData.phase,
    piles: {
      belongs: [...state.piles.belongs],
      out: [...state.piles.out],
      unsure: [...state.piles.unsure],
    },
    destinations: Object.fromEntries(state.destinations),
    spots: Object.fromEntries(state.spots),
    itemsProcessed: itemsProcessedOf(state),
    room: state.room,
    seen: [...state.seen],
    ...(fn ? { function: fn } : {}),
    anchors: [...anchorsOf(state)],
    phaseData: phaseDataToWire(state.phaseData),
    sessionStart: state.sessionStart,
    ended: isEnded(state),
    sortedOrder: [...state.sortedOrder],
  };
}

function activeToWire(active: ActiveState) {
  return { function: active.function, anchors: [...active.anchors], lastAnxiety: active.lastAnxiety };
}

function resumableToWire(d: SortingData | RefiningData) {
  return d.phase === 'sorting'
    ? { phase: d.phase, active: activeToWire(d.active), currentItem: d.currentItem }
    : {
        phase: d.phase,
        active: activeToWire(d.active),
        emergentCategories: Object.fromEntries(
          [...d.emergentCategories].map(([c, items]) => [c, [...items]]),
        ),
        currentCategory: d.currentCategory,
        currentItem: d.currentItem,
      };
}

function phaseDataToWire(d: PhaseData): TidyingPhaseData {
  switch (d.phase) {
    case 'surveying':
      return {
        phase: d.phase,
        gatheredFunction: d.gatheredFunction,
        gatheredAnchors: [...d.gatheredAnchors],
      };
    case 'sorting':
    case 'refining':
      return resumableToWire(d);
    case 'splitting':
      return {
        phase: d.phase,
        active: activeToWire(d.active),
        categories: [...d.categories],
        ...(Object.keys(d.assignment).length > 0 ? { assignment: { ...d.assignment } } : {}),
      };
    case 'decision-support':
      return {
        phase: d.phase,
        active: activeToWire(d.active),
        stuckItem: d.stuckItem,
        resume: resumableToWire(d.resume),
      };
    case 'ended':
      return { phase: d.phase, function: d.function, anchors: [...d.anchors] };
  }
}

export interface BadSnapshot {
  code: 'bad_snapshot';
  message: string;
}

/** The typed session from its wire form, or why it cannot be one. */
export function fromWire(value: unknown): Result<SessionState, BadSnapshot> {
  const parsed = TidyingStateSchema.safeParse(value);
  if (!parsed.success) return err({ code: 'bad_snapshot', message: parsed.error.message });
  const wire = parsed.data;
  const phaseData = phaseDataFromWire(wire.phaseData);
  if (!phaseData.ok) return err({ code: 'bad_snapshot', message: phaseData.error });
  return ok({
    phaseData: phaseData.value,
    piles: {
      belongs: allOf(wire.piles.belongs, mkItemName),
      out: allOf(wire.piles.out, mkItemName),
      unsure: allOf(wire.piles.unsure, mkItemName),
    },
    destinations: placesFromWire(wire.destinations),
    spots: placesFromWire(wire.spots),
    room: wire.room,
    seen: allOf(wire.seen, mkItemName),
    sessionStart: wire.sessionStart,
    sortedOrder: allOf(wire.sortedOrder, mkItemName),
  });
}

/** Each item's place (a destination, a spot), as the wire names them. */
function placesFromWire(wire: Record<string, string>): Map<ItemName, Location> {
  const places = new Map<ItemName, Location>();
  for (const [name, where] of Object.entries(wire)) {
    const item = mkItemName(name);
    const location = mkLocation(where);
    if (item.ok && location.ok) places.set(item.value, location.value);
  }
  return places;
}

type WireActive = { function: string; anchors: string[]; lastAnxiety: string | null };
type WireResumable = Extract<TidyingPhaseData, { phase: 'sorting' | 'refining' }>;

function activeFromWire(a: WireActive): Result<ActiveState, string> {
  const made = mkActiveState(a.function, a.anchors, a.lastAnxiety);
  return made.ok ? made : err(made.error.message);
}

function resumableFromWire(d: WireResumable): Result<SortingData | RefiningData, string> {
  const active = activeFromWire(d.active);
  if (!active.ok) return active;
  const currentItem = orNull(mkItemName(d.currentItem ?? ''));
  if (d.phase === 'sorting') return ok({ phase: 'sorting', active: active.value, currentItem });
  const categories = new Map<CategoryName, readonly ItemName[]>();
  for (const [name, items] of Object.entries(d.emergentCategories)) {
    const category = mkCategoryName(name);
    if (category.ok) categories.set(category.value, allOf(items, mkItemName));
  }
  const refining = mkRefining(active.value, categories, d.currentCategory, currentItem);
  return refining.ok ? refining : err(refining.error.message);
}

function phaseDataFromWire(d: TidyingPhaseData): Result<PhaseData, string> {
  switch (d.phase) {
    case 'surveying':
      return ok({
        phase: 'surveying',
        gatheredFunction: orNull(mkSpaceFunction(d.gatheredFunction ?? '')),
        gatheredAnchors: allOf(d.gatheredAnchors, mkItemName),
      });
    case 'sorting':
    case 'refining':
      return resumableFromWire(d);
    case 'splitting': {
      const active = activeFromWire(d.active);
      if (!active.ok) return active;
      const made = mkSplitting(active.value, allOf(d.categories, mkCategoryName), assignmentOf(d.assignment));
      return made.ok ? made : err(made.error.message);
    }
    case 'decision-support': {
      const active = activeFromWire(d.active);
      if (!active.ok) return active;
      const resume = resumableFromWire(d.resume);
      if (!resume.ok) return resume;
      const made = mkDecisionSupport(active.value, d.stuckItem, resume.value);
      return made.ok ? made : err(made.error.message);
    }
    case 'ended':
      return ok({
        phase: 'ended',
        function: orNull(mkSpaceFunction(d.function ?? '')),
        anchors: allOf(d.anchors, mkItemName),
      });
  }
}
