import { yours } from './landed-words';
import { itemsProcessedOf, stillToGoOf, type SessionState } from './session-state';
import type { ItemName } from './tidying-types';

/** How a person calls each pile (the web client's session panel says the same). */
export const PILE_LABELS = { out: 'Out', belongs: 'Belongs here', unsure: 'Unsure' } as const;

/**
 * What the session comes to, in a line: every non-empty pile with its count and its items, each
 * item of the out pile with where it goes and of the belongs pile with its spot when one was
 * named, then what the photos showed that is on no pile yet. "Out (2): old letters → trash, coffee
 * mug → kitchen; Belongs here (2): lamp, keys → hook by the door; Unsure (1): cable; Still to go
 * (1): papers".
 */
export function recapOf(state: SessionState): string {
  const { out, belongs, unsure } = state.piles;
  const at = (places: ReadonlyMap<ItemName, string>) => (item: ItemName) => {
    const place = places.get(item);
    // ("in my wardrobe" said back to them: "in your wardrobe")
    return place ? `${item} → ${yours(place)}` : item;
  };
  const piles: [string, readonly string[]][] = [
    [PILE_LABELS.out, out.map(at(state.destinations))],
    [PILE_LABELS.belongs, belongs.map(at(state.spots))],
    [PILE_LABELS.unsure, unsure],
  ];
  piles.push(['Still to go', stillToGoOf(state)]);
  const named = piles
    .filter(([, items]) => items.length > 0)
    .map(([label, items]) => `${label} (${items.length}): ${items.join(', ')}`);
  return named.length > 0 ? named.join('; ') : 'Nothing sorted yet';
}

/** The session's end in figures and words, for the end_session tool's result. */
export function endOfSession(state: SessionState) {
  return {
    itemsProcessed: itemsProcessedOf(state),
    belongs: [...state.piles.belongs],
    out: [...state.piles.out],
    unsure: [...state.piles.unsure],
    destinations: Object.fromEntries(state.destinations),
    spots: Object.fromEntries(state.spots),
    recap: recapOf(state),
  };
}
