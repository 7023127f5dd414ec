import type { DecidedToo, Extract, PhotoAnalysis } from './observation';
import { categoriesFor, distribute } from './categories';
import {
  anchorsOf,
  currentItemOf,
  carriedOn,
  functionOf,
  isEnded,
  itemsProcessedOf,
  lastAnxietyOf,
  nextSeenOf,
  pendingItemOf,
  phaseOf,
  type Phase,
  type RefiningData,
  type SessionState,
  SPLIT_THRESHOLD,
  startedOver,
} from './session-state';
import type { Action, SortedToo } from './tidying-action';
import { mkLocation, type AnxietyTrigger, type ItemName, type Location } from './tidying-types';

/** What `decide` answers: the action for this turn and the phase the session moves to. */
export interface Decision {
  action: Action;
  nextPhase: Phase;
}

/** Every this many items processed, a plain "go on" gets an energy check instead. */
export const ENERGY_CHECK_EVERY = 10;

/**
 * The pure routing of the OODA loop (seed 000's decideFromExtract): no model calls, no effects.
 * Photo-aware rules first (a buried room skips the questions, a blocked function with a known
 * purpose starts sorting at once, a clear room is acknowledged), then the phase's own rules.
 * Stopping wins everywhere and ends the session (its summary again, if it already ended); after
 * the end, more words carry the same session on (its piles kept), and only asking for a new one
 * starts over. Anxiety (said now, or the last trigger coming up
 * again) pivots away.
 */
export function decide(current: SessionState, photo: PhotoAnalysis | null, extract: Extract): Decision {
  if (extract.intent === 'stop') return { action: { tag: 'summary' }, nextPhase: 'ended' };
  // applyDecision carries the session on, or starts it over, the same way (from the extract as
  // `readAfterEnd` gives it, which the turn records)
  extract = readAfterEnd(current, photo, extract);
  const state = sessionFor(current, extract);
  const phase = phaseOf(state);
  const stay = (action: Action): Decision => ({ action, nextPhase: phase });

  const trigger = anxietyIn(state, extract);
  if (trigger) {
    return {
      action: { tag: 'pivot-away', trigger, location: pivotTarget(photo, trigger) },
      nextPhase: phase === 'decision-support' ? resumePhase(state) : phase,
    };
  }

  const knownFunction = extract.function ?? functionOf(state);
  if (photo) {
    if (photo.chaosLevel === 'buried')
      return {
        action: { tag: 'first-instruction' },
        nextPhase: phase === 'surveying' ? (knownFunction ? 'sorting' : 'surveying') : phase,
      };
    if (photo.chaosLevel === 'clear') return stay({ tag: 'ack-progress', note: 'the space looks clear' });
    if (photo.blockedFunction && knownFunction && phase === 'surveying')
      return { action: { tag: 'first-instruction' }, nextPhase: 'sorting' };
  }

  if (extract.intent === 'undo') {
    const taken = takenBack(state, extract.item);
    if (taken && (phase === 'sorting' || phase === 'refining' || phase === 'decision-support'))
      return {
        action: { tag: 'ask-item-decision', item: taken, reopened: true },
        nextPhase: phase === 'refining' ? 'refining' : 'sorting',
      };
    // nothing decided to take back: the words only go on
    extract = { ...extract, intent: 'continue', item: null };
  }

  switch (phase) {
    case 'surveying':
      return surveying(state, extract);
    case 'sorting':
      return sorting(state, extract);
    case 'splitting':
      return splitting(state, extract);
    case 'refining':
      return refining(state, extract);
    case 'decision-support':
      return decisionSupport(state, extract);
    case 'ended':
      return surveying(state, extract);
  }
}

/**
 * After the recap, a photo of another room than the session's asks for a new session as words
 * would ("start over"): the extract says so. Anything else is read as it was said.
 */
export function readAfterEnd(current: SessionState, photo: PhotoAnalysis | null, extract: Extract): Extract {
  const otherRoom = photo !== null && current.room !== null && photo.roomType !== current.room;
  return isEnded(current) && otherRoom && extract.intent !== 'stop'
    ? { ...extract, intent: 'restart' }
    : extract;
}

/** The session a turn decides from: a new one when asked for, the ended one carried on, or as it is. */
export function sessionFor(current: SessionState, extract: Extract): SessionState {
  if (extract.intent === 'restart') return startedOver(current);
  return isEnded(current) ? carriedOn(current) : current;
}

function surveying(state: SessionState, extract: Extract): Decision {
  if (!(extract.function ?? functionOf(state)))
    return { action: { tag: 'ask-function' }, nextPhase: 'surveying' };
  const anchors = extract.anchors ?? anchorsOf(state);
  const ready = extract.intent === 'start' || extract.intent === 'continue';
  if (anchors.length === 0 && !ready) return { action: { tag: 'ask-anchors' }, nextPhase: 'surveying' };
  return { action: { tag: 'first-instruction' }, nextPhase: 'sorting' };
}

function sorting(state: SessionState, extract: Extract): Decision {
  const current = currentItemOf(state);
  const item = extract.item ?? pendingItemOf(state);
  // A reply naming the current item that only goes on with it or puts it off, deciding nothing
  // else about it ("found it", "skip it" to a description of it), is the clarifying mode's to
  // answer (seed 001: resume_sorting or skip_item there), as asking what it is.
  if (
    current &&
    extract.item === current &&
    (extract.intent === 'continue' || (extract.intent === 'decided' && extract.choice === 'unsure'))
  )
    return { action: { tag: 'ask-what-is-it' }, nextPhase: 'sorting' };
  switch (extract.intent) {
    case 'stop':
      return { action: { tag: 'summary' }, nextPhase: 'ended' };
    case 'help': {
      // a thing already put off ("not now") is not what they are stuck on: "ugh, this is taking
      // forever" after it asks how they are doing, not about it again
      const stuckOn = extract.item ?? (item !== null && !state.piles.unsure.includes(item) ? item : null);
      return stuckOn
        ? { action: { tag: 'decision-aid', item: stuckOn }, nextPhase: 'decision-support' }
        : { action: { tag: 'energy-check' }, nextPhase: 'sorting' };
    }
    case 'decided':
      // the user's own decision is taken first, even with a big unsure pile
      return { action: decided(extract, item), nextPhase: 'sorting' };
    // (a new session is surveying by the time a phase decides, see sessionFor: never `restart` here;
    // nor `undo`, which `decide` answers or reads as going on)
    case 'item':
    case 'start':
    case 'restart':
    case 'undo':
    case 'continue': {
      // a big unsure pile is split before anything else, however its items got there
      const [first, ...rest] = state.piles.unsure;
      if (first && state.piles.unsure.length > SPLIT_THRESHOLD)
        return {
          action: { tag: 'instruct-split', categories: categoriesFor([first, ...rest]), assignment: {} },
          nextPhase: 'splitting',
        };
      // "ok, the cables first" goes on with the thing it names
      const named = extract.intent === 'item' || (extract.intent === 'start' && extract.item !== null);
      if (named) return { action: askAbout(state, item), nextPhase: 'sorting' };
      const processed = itemsProcessedOf(state);
      if (processed > 0 && processed % ENERGY_CHECK_EVERY === 0)
        return { action: { tag: 'energy-check' }, nextPhase: 'sorting' };
      // "go", "next", "yes" with things the photos showed still to come: the next of them, not
      // "what next?" (words that only go on without saying so, a question aside, are not a go)
      const seen = extract.intent === 'start' ? nextSeenOf(state) : null;
      if (seen) return { action: askAbout(state, seen), nextPhase: 'sorting' };
      return { action: { tag: 'instruct-next' }, nextPhase: 'sorting' };
    }
  }
}

function splitting(state: SessionState, extract: Extract): Decision {
  if (extract.intent === 'help') return { action: { tag: 'energy-check' }, nextPhase: 'splitting' };
  if (state.phaseData.phase !== 'splitting') return sorting(state, extract);
  // the first item of the first category with any: where refining starts
  const categories = distribute(state.piles.unsure, state.phaseData.categories, state.phaseData.assignment);
  const first = state.phaseData.categories.map((c) => categories.get(c)?.[0]).find((i) => i !== undefined);
  return first
    ? { action: { tag: 'ask-item-decision', item: first }, nextPhase: 'refining' }
    : { action: { tag: 'instruct-next' }, nextPhase: 'sorting' };
}

function refining(state: SessionState, extract: Extract): Decision {
  if (state.phaseData.phase !== 'refining') return sorting(state, extract);
  const data = state.phaseData;
  const item = extract.item ?? data.currentItem;
  const next = nextItemIn(data);
  switch (extract.intent) {
    case 'help':
      return item
        ? { action: { tag: 'decision-aid', item }, nextPhase: 'decision-support' }
        : { action: { tag: 'energy-check' }, nextPhase: next ? 'refining' : 'sorting' };
    case 'decided':
      return { action: decided(extract, item), nextPhase: remainsAfter(data, item) ? 'refining' : 'sorting' };
    case 'item':
      return { action: askAbout(state, item), nextPhase: next ? 'refining' : 'sorting' };
    default:
      return next
        ? { action: { tag: 'ask-item-decision', item: next }, nextPhase: 'refining' }
        : refined(state);
  }
}

/**
 * Every category has been gone through: back to sorting. With items still unsure (put off once
 * more), the user is asked whether to keep going rather than told to split them again.
 */
function refined(state: SessionState): Decision {
  return state.piles.unsure.length > 0
    ? { action: { tag: 'energy-check' }, nextPhase: 'sorting' }
    : { action: { tag: 'instruct-next' }, nextPhase: 'sorting' };
}

function decisionSupport(state: SessionState, extract: Extract): Decision {
  if (state.phaseData.phase !== 'decision-support') return sorting(state, extract);
  const { resume, stuckItem } = state.phaseData;
  switch (extract.intent) {
    case 'help':
      return { action: { tag: 'energy-check' }, nextPhase: 'decision-support' };
    case 'decided': {
      const item = extract.item ?? stuckItem;
      const back = resume.phase === 'refining' && !remainsAfter(resume, item) ? 'sorting' : resume.phase;
      return { action: decided(extract, item), nextPhase: back };
    }
    case 'item':
      return { action: askAbout(state, extract.item), nextPhase: resume.phase };
    default:
      return { action: { tag: 'instruct-next' }, nextPhase: resume.phase };
  }
}

/**
 * What "undo that" takes back: the thing named, else the one last put on a pile (a card just
 * answered, a thing just decided in words; said again, the one before it), when it is on a pile;
 * null when nothing is.
 */
function takenBack(state: SessionState, named: ItemName | null): ItemName | null {
  const { belongs, out, unsure } = state.piles;
  const onAPile = (item: ItemName) => [...belongs, ...out, ...unsure].includes(item);
  if (named) return onAPile(named) ? named : null;
  return state.sortedOrder.findLast(onAPile) ?? null;
}

/**
 * Asking about an item the user names. One already decided is never proposed again: the coach
 * says where it went instead (a second mug is "another mug" to the user, and named so).
 */
function askAbout(state: SessionState, item: ItemName | null): Action {
  if (!item) return { tag: 'ask-what-is-it' };
  if (state.piles.belongs.includes(item))
    return { tag: 'already-sorted', item, pile: 'belongs', location: state.spots.get(item) ?? null };
  if (state.piles.out.includes(item)) {
    return { tag: 'already-sorted', item, pile: 'out', location: state.destinations.get(item) ?? null };
  }
  return { tag: 'ask-item-decision', item };
}

const placed = (location: Location, item: ItemName | null): Action =>
  item ? { tag: 'instruct-place', location, item } : { tag: 'instruct-place', location };

/**
 * The instruction for a decision the user stated; the further things the same words decided go
 * with it ("the books on the shelf and the lamp on the nightstand"), when it sorts anything.
 */
function decided(extract: Extract, item: ItemName | null): Action {
  const alsoSorted = extract.alsoDecided.flatMap((d) => (d.item === item ? [] : sortedToo(d)));
  const withRest = <A extends Action>(action: A): A =>
    alsoSorted.length > 0 ? { ...action, alsoSorted } : action;
  switch (extract.choice) {
    case 'trash':
      return withRest({ tag: 'instruct-trash' });
    case 'unsure':
      return withRest({ tag: 'instruct-unsure' });
    case 'place':
      if (extract.place) return withRest(placed(extract.place, item));
      return item ? { tag: 'ask-item-decision', item } : { tag: 'ask-what-is-it' };
    case 'keep':
      return withRest(placed(extract.place ?? KEEP_HERE, item));
    case null:
      return { tag: 'instruct-next' };
  }
}

/**
 * Every thing the words decided, in the order said, as the instructions that sort them: for a
 * turn whose own action sorts nothing ("sleeping mostly, and the clothes go in the wardrobe"
 * answers what the space is for), so the decisions still land.
 */
export function decisionsIn(extract: Extract): SortedToo[] {
  const own =
    extract.item && extract.intent === 'decided' && extract.choice
      ? sortedToo({ item: extract.item, choice: extract.choice, place: extract.place })
      : [];
  return [...own, ...extract.alsoDecided.filter((d) => d.item !== extract.item).flatMap(sortedToo)];
}

/** A further decision as the instruction that sorts its thing; none for a place with no place named. */
function sortedToo(d: DecidedToo): SortedToo[] {
  switch (d.choice) {
    case 'trash':
      return [{ tag: 'instruct-trash', item: d.item }];
    case 'unsure':
      return [{ tag: 'instruct-unsure', item: d.item }];
    case 'place':
      return d.place ? [{ tag: 'instruct-place', location: d.place, item: d.item }] : [];
    case 'keep':
      return [{ tag: 'instruct-place', location: d.place ?? KEEP_HERE, item: d.item }];
  }
}

const KEEP_HERE = location('its place in this space');
const EASY_CORNER = location('the easiest corner');

/** The trigger to steer away from: one the user shows now, or the last one coming up again. */
function anxietyIn(state: SessionState, extract: Extract): AnxietyTrigger | null {
  if (extract.anxiety) return extract.anxiety;
  const last = lastAnxietyOf(state);
  if (last && extract.item && overlaps(extract.item, last)) return last;
  return null;
}

/** Somewhere else to work: the photo's first target or a visible thing unrelated to the trigger. */
function pivotTarget(photo: PhotoAnalysis | null, trigger: AnxietyTrigger): Location {
  const candidates = [photo?.firstTarget, ...(photo?.visibleItems ?? [])];
  const elsewhere = candidates.find((c): c is ItemName => !!c && !overlaps(c, trigger));
  return elsewhere ? location(elsewhere) : EASY_CORNER;
}

function overlaps(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x.includes(y) || y.includes(x);
}

function resumePhase(state: SessionState): Phase {
  return state.phaseData.phase === 'decision-support' ? state.phaseData.resume.phase : phaseOf(state);
}

/** Whether any item is left in the refining categories once `item` is decided. */
function remainsAfter(data: RefiningData, item: ItemName | null): boolean {
  return [...data.emergentCategories.values()].some((items) => items.some((i) => i !== item));
}

function nextItemIn(data: RefiningData): ItemName | null {
  const current = data.emergentCategories.get(data.currentCategory) ?? [];
  const others = [...data.emergentCategories.values()].flat();
  return current[0] ?? others[0] ?? null;
}

function location(text: string): Location {
  const made = mkLocation(text);
  if (!made.ok) throw new Error('fixed locations are never blank');
  return made.value;
}
