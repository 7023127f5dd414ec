import { err, ok, type Result, type TidyingPhase } from '@sweatpants/domain';
import type { Space } from './pile-placement';
import {
  mkAnxietyTrigger,
  mkCategoryName,
  mkItemName,
  mkSpaceFunction,
  type AnxietyTrigger,
  type Assignment,
  type CategoryName,
  type ItemName,
  type Location,
  type SpaceFunction,
} from './tidying-types';

/** Above this many unsure items, sorting stops to split the pile (seed 000). */
export const SPLIT_THRESHOLD = 5;

/**
 * The tidying session (seed 000's State.hs). Each phase carries only the data valid in it, so the
 * seed's invalid states cannot be written down: no sorting without a function (it lives in
 * ActiveState), no refining without a current category, no decision support without a stuck item,
 * no split into zero categories (a non-empty tuple). The phase itself is derived, never stored,
 * and so are the count of processed items (from the piles) and whether the session ended.
 */

export type Phase = TidyingPhase;
export type NonEmpty<T> = readonly [T, ...T[]];

/** What every phase after surveying shares. */
export interface ActiveState {
  readonly function: SpaceFunction;
  readonly anchors: readonly ItemName[];
  readonly lastAnxiety: AnxietyTrigger | null;
}

export interface SurveyingData {
  readonly phase: 'surveying';
  readonly gatheredFunction: SpaceFunction | null;
  readonly gatheredAnchors: readonly ItemName[];
}
export interface SortingData {
  readonly phase: 'sorting';
  readonly active: ActiveState;
  readonly currentItem: ItemName | null;
}
export interface SplittingData {
  readonly phase: 'splitting';
  readonly active: ActiveState;
  readonly categories: NonEmpty<CategoryName>;
  /** which category each item goes in, when the categories were drawn from the items */
  readonly assignment: Assignment;
}
export interface RefiningData {
  readonly phase: 'refining';
  readonly active: ActiveState;
  /** category → the items still to go through in it */
  readonly emergentCategories: ReadonlyMap<CategoryName, readonly ItemName[]>;
  readonly currentCategory: CategoryName;
  readonly currentItem: ItemName | null;
}
export interface DecisionSupportData {
  readonly phase: 'decision-support';
  readonly active: ActiveState;
  readonly stuckItem: ItemName;
  /** where the session goes back to once the item is decided, whole */
  readonly resume: SortingData | RefiningData;
}
/** The session is over: what it was for is kept for the recap; nothing is in progress. */
export interface EndedData {
  readonly phase: 'ended';
  readonly function: SpaceFunction | null;
  readonly anchors: readonly ItemName[];
}
export type PhaseData =
  SurveyingData | SortingData | SplittingData | RefiningData | DecisionSupportData | EndedData;

/** Every item seen is on exactly one pile; the unsure pile includes items waiting in categories. */
export interface Piles {
  readonly belongs: readonly ItemName[];
  readonly out: readonly ItemName[];
  readonly unsure: readonly ItemName[];
}

export interface SessionState {
  readonly phaseData: PhaseData;
  readonly piles: Piles;
  /** where each item of the out pile goes: a place elsewhere, or trash, donation, recycling */
  readonly destinations: ReadonlyMap<ItemName, Location>;
  /** where in this space an item of the belongs pile goes, when the words named a spot */
  readonly spots: ReadonlyMap<ItemName, Location>;
  /** the kind of room being tidied, from the latest photo analysis; null until a photo said */
  readonly room: string | null;
  /**
   * the things the photos showed and the person named, in that order, so the coach goes through
   * them all
   */
  readonly seen: readonly ItemName[];
  /** set when the first turn is decided */
  readonly sessionStart: string | null;
  /**
   * the things put on a pile, tapped or said, each once, the last put last: what "undo that"
   * takes back, and said again, the one before
   */
  readonly sortedOrder: readonly ItemName[];
}

export const initialSession: SessionState = {
  phaseData: { phase: 'surveying', gatheredFunction: null, gatheredAnchors: [] },
  piles: { belongs: [], out: [], unsure: [] },
  destinations: new Map(),
  spots: new Map(),
  room: null,
  seen: [],
  sessionStart: null,
  sortedOrder: [],
};

/** The phase, derived from the phase data. */
export const phaseOf = (state: SessionState): Phase => state.phaseData.phase;

/** Whether the session is over (the user stopped, or confirmed they are done). */
export const isEnded = (state: SessionState): boolean => state.phaseData.phase === 'ended';

/** The decided items: each item on the belongs or out pile, counted once however often re-decided. */
export const itemsProcessedOf = (state: SessionState): number =>
  state.piles.belongs.length + state.piles.out.length;

/** The items decided for good (kept, or going out): named again, the coach says where they went. */
export const decidedItemsOf = (state: SessionState): readonly ItemName[] => [
  ...state.piles.belongs,
  ...state.piles.out,
];

/** Whether the thing is on a pile, put off (unsure) included. */
export const isOnAPile = (state: SessionState, item: ItemName): boolean =>
  [...state.piles.belongs, ...state.piles.out, ...state.piles.unsure].some(
    (i) => i.toLowerCase() === item.toLowerCase(),
  );

/**
 * The next thing the photos showed that is on no pile yet and not the one in question: what the
 * coach proposes when the person says "go on", and names when it asks what is next.
 */
export function nextSeenOf(state: SessionState): ItemName | null {
  const current = currentItemOf(state);
  return stillToGoOf(state).find((item) => item !== current) ?? null;
}

/**
 * The things seen (shown or named) that are on no pile yet, in the order they came; not the ones
 * that stay for sure (the anchors: "the laptop obviously stays" is not asked about).
 */
export function stillToGoOf(state: SessionState): readonly ItemName[] {
  const { belongs, out, unsure } = state.piles;
  const settled = new Set<string>([...belongs, ...out, ...unsure, ...anchorsOf(state)]);
  return state.seen.filter((item) => !settled.has(item));
}

/**
 * The name the session already knows a thing by, when `name` is a shorter way to say it: "mug"
 * for the "coffee mug" named before, "receipt" for "old receipts". One of the things still to go
 * is preferred, then one on a pile; `name` itself when none matches, or more than one does.
 */
export function knownNameOf(state: SessionState, name: ItemName): ItemName {
  const words = name.toLowerCase().split(/\s+/);
  const saysIt = (known: ItemName) => {
    const knownWords = known.toLowerCase().split(/\s+/);
    const tail = knownWords.slice(-words.length);
    return tail.length === words.length && tail.every((w, i) => single(w) === single(words[i] ?? ''));
  };
  const { belongs, out, unsure } = state.piles;
  for (const among of [[...stillToGoOf(state)], [...belongs, ...out, ...unsure]]) {
    if (among.includes(name)) return name;
    const matches = [...new Set(among.filter(saysIt))];
    if (matches.length === 1 && matches[0]) return matches[0];
    if (matches.length > 1) return name;
  }
  return name;
}

/** One of a word said of many: "mugs" → "mug" ("glasses" stays). */
const single = (word: string) => word.replace(/(?<=[^s])s$/, '');

/** The noun a thing's name names: "big cookbook that you never use" → "cookbook", "shoes" → "shoe". */
function nounOf(name: ItemName): string {
  const words = name.toLowerCase().split(/\s+/);
  const at = words.findIndex((w) => /^(?:that|which|for|from|of|with)$/.test(w));
  return single((at > 0 ? words[at - 1] : words.at(-1)) ?? '');
}

/**
 * Whether `part` is some of `thing`, told apart by a word of its own: "big cookbook that you never
 * use" or "few cookbooks" of the cookbooks, "shoes that hurt your feet" of the shoes.
 */
export const isPartOf = (part: ItemName, thing: ItemName): boolean =>
  part !== thing && nounOf(part) === nounOf(thing);

/**
 * The state with `things` among those seen, each once: after the ones already there, or right
 * after `after` when it is seen already (some of the thing in question, told apart, comes next).
 */
export function withSeen(state: SessionState, things: readonly ItemName[], after?: ItemName): SessionState {
  const known = new Set<string>(state.seen);
  const added = things.filter((thing) => !known.has(thing) && known.add(thing));
  if (added.length === 0) return state;
  const at = after === undefined ? -1 : state.seen.indexOf(after);
  if (at < 0) return { ...state, seen: [...state.seen, ...added] };
  return { ...state, seen: [...state.seen.slice(0, at + 1), ...added, ...state.seen.slice(at + 1)] };
}

/** The space being tidied, as the pile placement needs it. */
export const spaceOf = (state: SessionState): Space => ({ room: state.room, function: functionOf(state) });

/** The phase data of a session that ends now: what it was for, and what stayed for sure. */
export function endedFrom(state: SessionState): EndedData {
  return { phase: 'ended', function: functionOf(state), anchors: anchorsOf(state) };
}

/**
 * The session carried on after its recap (more words that do not ask for a new one): the piles,
 * destinations and room kept, sorting again with what the space is for, or surveying when the
 * session ended before that was known. The recap at the next end counts everything.
 */
export function carriedOn(state: SessionState): SessionState {
  const d = state.phaseData;
  if (d.phase !== 'ended') return state;
  const phaseData: PhaseData = d.function
    ? {
        phase: 'sorting',
        active: { function: d.function, anchors: d.anchors, lastAnxiety: null },
        currentItem: null,
      }
    : { phase: 'surveying', gatheredFunction: null, gatheredAnchors: d.anchors };
  return { ...state, phaseData };
}

/** A new session, asked for: nothing carries over but the room the last photo showed. */
export const startedOver = (state: SessionState): SessionState => ({ ...initialSession, room: state.room });

export interface InvalidPhase {
  code: 'invalid_phase';
  message: string;
}
const invalid = (message: string) => err<InvalidPhase>({ code: 'invalid_phase', message });

/** Constructors from plain text, for the boundary: each refuses what its phase cannot hold. */
export function mkActiveState(
  fn: string | null,
  anchors: readonly string[] = [],
  lastAnxiety: string | null = null,
): Result<ActiveState, InvalidPhase> {
  const made = mkSpaceFunction(fn ?? '');
  if (!made.ok) return invalid('a session past surveying needs to know what the space is for');
  const anxiety = lastAnxiety === null ? null : mkAnxietyTrigger(lastAnxiety);
  return ok({
    function: made.value,
    anchors: anchors.flatMap((a) => {
      const item = mkItemName(a);
      return item.ok ? [item.value] : [];
    }),
    lastAnxiety: anxiety?.ok ? anxiety.value : null,
  });
}

export function mkSplitting(
  active: ActiveState,
  categories: readonly CategoryName[],
  assignment: Assignment = {},
): Result<SplittingData, InvalidPhase> {
  const [first, ...rest] = categories;
  if (first === undefined) return invalid('splitting needs at least one category');
  return ok({ phase: 'splitting', active, categories: [first, ...rest], assignment });
}

export function mkRefining(
  active: ActiveState,
  emergentCategories: ReadonlyMap<CategoryName, readonly ItemName[]>,
  currentCategory: string,
  currentItem: ItemName | null = null,
): Result<RefiningData, InvalidPhase> {
  const category = mkCategoryName(currentCategory);
  if (!category.ok) return invalid('refining needs a current category');
  if (!emergentCategories.has(category.value))
    return invalid(`refining: "${category.value}" is not one of the emergent categories`);
  return ok({ phase: 'refining', active, emergentCategories, currentCategory: category.value, currentItem });
}

export function mkDecisionSupport(
  active: ActiveState,
  stuckItem: string,
  resume: SortingData | RefiningData,
): Result<DecisionSupportData, InvalidPhase> {
  const item = mkItemName(stuckItem);
  if (!item.ok) return invalid('decision support needs the item the user is stuck on');
  return ok({ phase: 'decision-support', active, stuckItem: item.value, resume });
}

/** The shared fields, or null while surveying and once ended (seed's getActiveState). */
export function activeOf(state: SessionState): ActiveState | null {
  const d = state.phaseData;
  return d.phase === 'surveying' || d.phase === 'ended' ? null : d.active;
}

export function functionOf(state: SessionState): SpaceFunction | null {
  const d = state.phaseData;
  if (d.phase === 'surveying') return d.gatheredFunction;
  return d.phase === 'ended' ? d.function : d.active.function;
}

export function anchorsOf(state: SessionState): readonly ItemName[] {
  const d = state.phaseData;
  if (d.phase === 'surveying') return d.gatheredAnchors;
  return d.phase === 'ended' ? d.anchors : d.active.anchors;
}

export function currentItemOf(state: SessionState): ItemName | null {
  const d = state.phaseData;
  switch (d.phase) {
    case 'sorting':
    case 'refining':
      return d.currentItem;
    case 'decision-support':
      return d.stuckItem;
    case 'surveying':
    case 'splitting':
    case 'ended':
      return null;
  }
}

export function lastAnxietyOf(state: SessionState): AnxietyTrigger | null {
  return activeOf(state)?.lastAnxiety ?? null;
}

export function currentCategoryOf(state: SessionState): CategoryName | null {
  const d = state.phaseData;
  if (d.phase === 'refining') return d.currentCategory;
  if (d.phase === 'decision-support' && d.resume.phase === 'refining') return d.resume.currentCategory;
  return null;
}

export function emergentCategoriesOf(state: SessionState): ReadonlyMap<CategoryName, readonly ItemName[]> {
  const d = state.phaseData;
  if (d.phase === 'refining') return d.emergentCategories;
  if (d.phase === 'decision-support' && d.resume.phase === 'refining') return d.resume.emergentCategories;
  return new Map();
}

/**
 * The item in question: the current one while it is still to be decided (not on the belongs or
 * out pile). Once decided, a reply that names no item is not about it any more.
 */
export function pendingItemOf(state: SessionState): ItemName | null {
  const item = currentItemOf(state);
  const { belongs, out } = state.piles;
  return item && !belongs.includes(item) && !out.includes(item) ? item : null;
}
