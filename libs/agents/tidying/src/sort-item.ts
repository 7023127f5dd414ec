import type { Placement } from './pile-placement';
import type { ActiveState, PhaseData, RefiningData, SessionState } from './session-state';
import type { CategoryName, ItemName } from './tidying-types';

/**
 * The one place an item moves between piles, whether a one-tap card or the user's words decided
 * it: off every other pile and onto the one its placement names, with its destination kept while
 * it is out and its spot while it belongs. In refining it leaves its category (decided or put off again, it is not proposed
 * there twice), and a final decision settles the last worry: either the item that worried the
 * user is dealt with, or they moved on past the pivot.
 */
export function sortItem(state: SessionState, item: ItemName, placement: Placement): SessionState {
  const without = (pile: readonly ItemName[]) => pile.filter((i) => i !== item);
  const rest = {
    belongs: without(state.piles.belongs),
    out: without(state.piles.out),
    unsure: without(state.piles.unsure),
  };
  const destinations = new Map(state.destinations);
  destinations.delete(item);
  if (placement.pile === 'out') destinations.set(item, placement.destination);
  const spots = new Map(state.spots);
  spots.delete(item);
  if (placement.pile === 'belongs' && placement.spot) spots.set(item, placement.spot);
  return {
    ...state,
    piles: { ...rest, [placement.pile]: [...rest[placement.pile], item] },
    destinations,
    spots,
    sortedOrder: [...state.sortedOrder.filter((i) => i !== item), item],
    phaseData: phaseDataAfterSorting(state.phaseData, item, placement.pile !== 'unsure'),
  };
}

/**
 * The item taken back ("undo that"): off every pile, with no destination, so that it is to be
 * decided again; the phase is left as it is (a category it left in refining stays behind it).
 */
export function unsortItem(state: SessionState, item: ItemName): SessionState {
  const without = (pile: readonly ItemName[]) => pile.filter((i) => i !== item);
  const destinations = new Map(state.destinations);
  destinations.delete(item);
  const spots = new Map(state.spots);
  spots.delete(item);
  return {
    ...state,
    piles: {
      belongs: without(state.piles.belongs),
      out: without(state.piles.out),
      unsure: without(state.piles.unsure),
    },
    destinations,
    spots,
    sortedOrder: state.sortedOrder.filter((i) => i !== item),
  };
}

/**
 * The thing told all in its parts ("bills on the side table, flyers in the recycling" of the post):
 * its parts are what is sorted, so it is off every pile, out of its category in refining, and no
 * more among the things seen to go through.
 */
export function toldInParts(state: SessionState, item: ItemName): SessionState {
  const off = unsortItem(state, item);
  return {
    ...off,
    seen: off.seen.filter((i) => i !== item),
    phaseData: phaseDataAfterSorting(off.phaseData, item, true),
  };
}

function phaseDataAfterSorting(d: PhaseData, item: ItemName, decided: boolean): PhaseData {
  const calm = (active: ActiveState): ActiveState =>
    decided && active.lastAnxiety ? { ...active, lastAnxiety: null } : active;
  switch (d.phase) {
    case 'sorting':
    case 'splitting':
      return { ...d, active: calm(d.active) };
    case 'refining':
      return leaveCategory({ ...d, active: calm(d.active) }, item);
    case 'decision-support': {
      const resume =
        d.resume.phase === 'refining'
          ? leaveCategory({ ...d.resume, active: calm(d.resume.active) }, item)
          : { ...d.resume, active: calm(d.resume.active) };
      return { ...d, active: calm(d.active), resume };
    }
    case 'surveying':
    case 'ended':
      return d;
  }
}

/** Refining without the item; the current category moves on to the next with items left. */
function leaveCategory(d: RefiningData, item: ItemName): RefiningData {
  const categories = new Map<CategoryName, readonly ItemName[]>(
    [...d.emergentCategories].map(([c, items]) => [c, items.filter((i) => i !== item)]),
  );
  const hasItems = (c: CategoryName) => (categories.get(c) ?? []).length > 0;
  const current = hasItems(d.currentCategory)
    ? d.currentCategory
    : ([...categories.keys()].find(hasItems) ?? d.currentCategory);
  return { ...d, emergentCategories: categories, currentCategory: current };
}
