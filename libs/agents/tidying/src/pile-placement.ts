import type { Disposition } from '@sweatpants/domain';
import { mkLocation, type Location } from './tidying-types';

/**
 * Which pile a disposition puts an item on, decided deterministically from the words alone:
 * trash, donate and recycle take it out; "not now" and "need more info" leave it unsure; a place
 * keeps it (belongs) when it is within the space being tidied, and takes it out, with the place
 * as its destination, when it is somewhere else (another room, the donation box). The space is
 * known by its kind of room (the photo analysis) or, failing that, by what it is for.
 */

/**
 * Where an item lands: the pile, for the out pile where it is taken, and for the belongs pile the
 * spot the words named ("on the hook by the door").
 */
export type Placement =
  { pile: 'belongs'; spot?: Location } | { pile: 'out'; destination: Location } | { pile: 'unsure' };

/** The space being tidied, as far as it is known. */
export interface Space {
  /** the photo analysis' room type: "office", "bedroom", "room" (unknown) */
  room: string | null;
  /** what the space is for: "working" */
  function: string | null;
}

/** Rooms by the words that name them outright. Checked before fixtures: "hall closet" is the hall. */
const ROOMS: readonly { room: string; words: RegExp }[] = [
  { room: 'kitchen', words: /\b(kitchen|kitchenette|pantry)\b/ },
  { room: 'bathroom', words: /\b(bathroom|washroom|restroom|loo|toilet|wc)\b/ },
  {
    room: 'bedroom',
    words:
      /\b(bedroom|bed ?room|guest room|spare room|box ?room|nursery|playroom|kids'? room|children'?s room)\b/,
  },
  { room: 'living room', words: /\b(living ?room|lounge|sitting room|den|family room)\b/ },
  { room: 'dining room', words: /\b(dining ?room)\b/ },
  { room: 'hallway', words: /\b(hallway|hall|entrance|entryway|foyer|mudroom|front door)\b/ },
  { room: 'office', words: /\b(office|study)\b/ },
  { room: 'garage', words: /\b(garage|shed|workshop)\b/ },
  { room: 'laundry', words: /\b(laundry|utility room)\b/ },
  { room: 'basement', words: /\b(basement|cellar)\b/ },
  { room: 'attic', words: /\b(attic|loft)\b/ },
];

/** Things that stand in one kind of room, so a place naming them is in that room. */
const FIXTURES: readonly { room: string; words: RegExp }[] = [
  { room: 'kitchen', words: /\b(fridge|freezer|dishwasher|cupboard by the sink)\b/ },
  { room: 'bathroom', words: /\b(shower|bathtub|bath|medicine cabinet)\b/ },
  { room: 'bedroom', words: /\b(wardrobe|closet|nightstand|bedside table|dresser)\b/ },
  { room: 'laundry', words: /\b(washing machine|washer|dryer|hamper|laundry basket)\b/ },
];

/** Places that are away from any room being tidied: giving away, storing off-site, outside. */
const AWAY =
  /\b(donation|donations|donate|charity|thrift|give ?away|to sell|sell pile|car|outside|upstairs|downstairs|another room|other room|elsewhere|somewhere else|storage unit|post office|mailbox|recycling|compost|trash|garbage|rubbish|tip|dump|skip|landfill|shop|pharmacy|chemist|(?:mum|mom|dad|gran|nan|sister|brother|friend|neighbou?r|parents)'?s?')\b/;

/** What a space is for, when it names its room (no photo said which room it is). */
const ROOM_BY_FUNCTION: readonly { room: string; words: RegExp }[] = [
  { room: 'kitchen', words: /\b(cook|cooking|baking|making coffee|eating)\b/ },
  { room: 'bedroom', words: /\b(sleep|sleeping|getting dressed|guests to stay)\b/ },
  { room: 'office', words: /\b(work|working|study|studying|writing)\b/ },
];

const firstRoom = (text: string, table: readonly { room: string; words: RegExp }[]): string | null =>
  table.find((r) => r.words.test(text))?.room ?? null;

/** The kind of room a text names ("the kitchen shelf" → kitchen), or null when it names none. */
export function roomNamedIn(text: string): string | null {
  const t = text.toLowerCase();
  return firstRoom(t, ROOMS) ?? firstRoom(t, FIXTURES);
}

/** The kind of room being tidied: the photo's room type, else what the space is for; null if unknown. */
export function roomOfSpace(space: Space): string | null {
  const fromPhoto = space.room ? roomNamedIn(space.room) : null;
  if (fromPhoto) return fromPhoto;
  return space.function ? firstRoom(space.function.toLowerCase(), ROOM_BY_FUNCTION) : null;
}

/**
 * Whether a place is within the space being tidied. "Here", a desk, a shelf, a drawer: yes. A
 * place that names another room (or a thing that stands in one), or somewhere away, is not; with
 * the space's room unknown, any named room counts as elsewhere.
 */
export function isWithinSpace(place: string, space: Space): boolean {
  const t = place.toLowerCase();
  if (/\b(here|this room|this space)\b/.test(t)) return true;
  const named = roomNamedIn(t);
  if (named) return named === roomOfSpace(space);
  // "your partner": back to whoever it belongs to, wherever they keep it
  return !AWAY.test(t) && !/^your [a-z]+$/.test(t);
}

const TRASH = fixed('trash');
const DONATION = fixed('donation');
const RECYCLING = fixed('recycling');

/** A place that is only "here": where the thing is, or its spot in this space. */
export const isRightHere = (location: string) =>
  /^(?:here|(?:its|their) (?:spot|place)(?: here| in this space)?)$/i.test(location.trim());

/** The pile a disposition puts an item on, with the destination of an item that goes out. */
export function placementOf(disposition: Disposition, space: Space): Placement {
  switch (disposition.kind) {
    case 'trash':
      return { pile: 'out', destination: TRASH };
    case 'donate':
      return { pile: 'out', destination: DONATION };
    case 'recycle':
      return { pile: 'out', destination: RECYCLING };
    case 'skip':
    case 'need-more-info':
      return { pile: 'unsure' };
    case 'place': {
      const where = mkLocation(disposition.location);
      // a place with no words says nothing about where: the item stays where it is for now
      if (!where.ok) return { pile: 'unsure' };
      return isWithinSpace(where.value, space)
        ? isRightHere(where.value)
          ? { pile: 'belongs' }
          : { pile: 'belongs', spot: where.value }
        : { pile: 'out', destination: where.value };
    }
  }
}

function fixed(text: string): Location {
  const made = mkLocation(text);
  if (!made.ok) throw new Error('fixed destinations are never blank');
  return made.value;
}
