import type { Disposition, Json } from '@sweatpants/domain';
import { optionInWords } from './option-words';
import { asksBack, clausesOf, COUNTED, EMPHATIC_NO, said, SOMEONE_ELSE, THE_REST, YES_WORDS } from './text';
import { meantWord } from './typos';

/**
 * How the offline model reads words typed at a proposal for a thing (a tidying card): where the
 * thing goes ("kitchen", "bin it", "on the shelf", "they're my partner's", a slip of the keys), or
 * that the words decide more than the card asks (another thing too, a part told apart), which
 * makes them a tangent the asker reads whole. ./off-script-rule reads the other kinds of question.
 */

/** A choice of the card, as its payload lists it. */
interface Choice {
  label?: string;
  disposition: Disposition;
}

/** Rooms a thing is taken to, named alone ("kitchen"). */
const ROOMS = [
  'kitchen',
  'bathroom',
  'bedroom',
  'living room',
  'hallway',
  'garage',
  'closet',
  'office',
  'basement',
  'attic',
];

/** Where things are put away in a room, said alone at a card ("drawer", "the shelf"): that spot. */
const SPOTS = [
  'drawer',
  'shelf',
  'cupboard',
  'wardrobe',
  'cabinet',
  'basket',
  'box',
  'nightstand',
  'dresser',
];
/** Spots things go on, not in. */
const ON_SPOTS = new Set(['shelf', 'nightstand', 'dresser']);
/** What a card's answer may say done with the thing, spelt out. */
const DOINGS = ['recycle', 'donate', 'trash', 'charity', 'rubbish', 'garbage'];

/** The answer words typed at a proposal give (its disposition), or null when they are a tangent. */
export function dispositionAnswer(
  payload: { [key: string]: Json },
  text: string,
): { [key: string]: Json } | null {
  if (asksBack(text)) return null;
  const choices = (Array.isArray(payload['choices']) ? payload['choices'] : []) as unknown as Choice[];
  // ("I'll use them up first, then the bottles go in the recycling": the bottles are for later)
  if (!USED_UP.test(text) && decidesAnotherThing(text, choices)) return null;
  const disposition = dispositionIn(text, choices);
  if (!disposition) return null;
  const first = choices[0]?.disposition;
  const wasCorrection = JSON.stringify(first) !== JSON.stringify(disposition);
  return { disposition: disposition as unknown as Json, wasCorrection };
}

/**
 * Words that decide another thing as well ("the books stay on the shelf, and the lamp goes in the
 * bin"): more than the card's answer, so they are a tangent, which the asker reads whole, and
 * nothing the person decided is lost. A later part counts when it leads with a thing of its own
 * ("the lamp …"), not a spot ("…, on the shelf") or a remark ("…, it's fine").
 */
function decidesAnotherThing(text: string, choices: readonly Choice[]): boolean {
  const [first, ...rest] = clausesOf(text);
  if (!first) return false;
  // "most of them are fine but a few pairs hurt my feet": the few are a part told apart
  if (PART_TOLD_APART.test(first)) return true;
  // "some of it is bills I need to pay, the rest is junk": a part of it told apart, then the rest;
  // "bills on the side table, flyers in the recycling": parts of it, each with its place
  const decidesFirst =
    SOME_OF_IT.test(first) || BARE_PLACED.test(first) || dispositionIn(first, choices) !== null;
  if (decidesFirst && rest.some((part) => decidesAThing(part, choices))) return true;
  // "the bills I need to pay, the rest is junk": whatever leads, a rest decided after it makes the
  // lead a part of the thing told apart (kept, by the look of it), not all of it
  return !WHOLE.test(first) && rest.some((part) => THE_REST.test(part) && decidesAThing(part, choices));
}

/**
 * Most of the thing asked about said of, but a part told apart: "most are fine but a few are
 * chipped", "they're fine but I never use the big one", "the cookbooks are fine except the red one",
 * "most of it can go in the recycling but I need to keep the tax stuff".
 */
const PART_TOLD_APART =
  /^(?:most|nearly all|almost all)\b.*\b(?:(?:but|except|though|only)\s+(?:a few|some|one|two|three|a couple|a handful|half)\b|but\s+(?:i|we)\s+(?:need|want|have|'d like|would like)\s+to\s+keep\b)|\b(?:are|is|'re|'s)\s+(?:all\s+)?(?:fine|ok(?:ay)?|good|great|alright|all right)[,;]?\s+(?:but|except)\s+\S/i;

/** A lead that is the whole thing asked about ("bin it", "they stay"), not a part of it. */
const WHOLE =
  /^(?:(?:yes|yep|ok(?:ay)?|so|and|well)[,.]?\s+)?(?:it|they|them|all|everything|both)\b|^(?:bin|trash|keep|toss|recycle|donate|put|move|take)\b/i;

/** A thing named bare and where it goes, the verb left out: "bills on the side table". */
const BARE_PLACED =
  /^(?!(?:still|just|maybe|probably|all|it|they|them|mostly|only|right|back|over|up|down|out|keep|put|stays?|goes|go|leave)\b)[a-z]+(?: [a-z]+)?\s+(?:in|on|into|onto|to|by|under|inside)\s+(?:the|my|a|an|our)\s+[a-z]/i;

/** A part of the thing asked about, told apart first: "some of it is bills", "most of them are mine". */
const SOME_OF_IT = /^(?:some|most|a few|a couple|half|part|a lot|lots) of (?:it|them|these|those)\b/i;

/**
 * A part of a reply that leads with a thing of its own, or names the rest of the one asked about,
 * or some of it by how many, and says what becomes of it ("the lamp goes in the bin", "bin the
 * rest", "one I use for pens so it stays").
 */
export const decidesAThing = (part: string, choices: readonly Choice[] = []) =>
  BARE_PLACED.test(part) ||
  DOES_WITH_ANOTHER.test(part) ||
  ((ANOTHER_THING.test(part) || THE_REST.test(part) || COUNTED.test(part)) &&
    (dispositionIn(part, choices) !== null || PLACED.test(part)));

const ANOTHER_THING = /^(?:the|my|these|those|this|that)\s+[a-z]/i;

/** A part that says what is done with a thing it names: "I'll keep the laptop charger", "bin the box". */
const DOES_WITH_ANOTHER =
  /^(?:(?:but|so)\s+)?(?:(?:i|we)(?:'ll| will| want to| wanna| am going to|'m going to| need to)\s+)?(?:keep|bin|recycle|donate|toss|sell|give away)\s+(?:the|my|our)\s+(?!rest\b)[a-z]/i;

/** A thing and its place, the verb left to the part before: "…, the dirty ones in the laundry basket". */
const PLACED =
  /^(?:the|my|these|those|this|that)\s+[a-z ]+?\s+(?:in|on|into|onto|to|by|under|inside)\s+(?:the|my|a|an|its|their|our)\s+[a-z]/i;

/** Words that bin a thing: "bin it", "it's junk", "get rid of it", "the broken crayons can go". */
const BINNED =
  /\b(?:trash|bin|throw|garbage|toss|rubbish|junk|get rid of|chuck|ditch)\b|\b(?:can|could|should|may) (?:all )?go(?: away| now)?\s*[.!]*$/i;

/** Words that let a thing go without saying where: "it can go", "the broken crayons can go". */
const LET_GO = /\b(?:can|could|should|may) (?:all )?go(?: now)?\s*[.!]*$/i;
/** Words that say where it goes: the bin. */
const THROWN = /\b(?:trash|bin|throw|garbage|toss|rubbish|junk|chuck|ditch)\b/i;
/** A disposition that takes the thing out of the home: the bin, charity, recycling, or a place that takes such things. */
const leaves = (d: Disposition): boolean =>
  d.kind === 'trash' ||
  d.kind === 'donate' ||
  d.kind === 'recycle' ||
  (d.kind === 'place' && /\b(?:recycling centre|pharmacy|tip|dump|charity)\b/i.test(d.location));

function dispositionIn(text: string, choices: readonly Choice[]): Disposition | null {
  if (
    said(text, ['not sure', 'not now', 'later', 'skip', "don't know", 'dunno', 'no idea']) ||
    ASK_FIRST.test(text)
  )
    return { kind: 'skip' };
  // "I'll use them up first, then recycle them": kept to be used up; what follows is for later
  if (USED_UP.test(text)) return { kind: 'place', location: 'here' };
  // Words of one of the card's own choices ("keep it here", "file it"): that choice.
  const labelled = choices.map((c, i) => ({ id: String(i), label: c.label ?? '' }));
  const named = optionInWords(text, labelled);
  if (named) return choices[Number(named.id)]?.disposition ?? null;
  // ("junk mail" and "bin bags" are things, not what is done with them)
  const plain = text.replace(/\b(?:junk|bin|rubbish|trash)\s+(?:mail|drawer|food|bags?|liners?)\b/gi, 'it');
  // "the ones I can't identify can go": out, the way the card proposes things leave (the
  // cables to a recycling centre, the jumper to charity), the bin when it proposes none
  if (LET_GO.test(plain) && !THROWN.test(plain))
    return choices.find((c) => leaves(c.disposition))?.disposition ?? { kind: 'trash' };
  if (BINNED.test(plain)) return { kind: 'trash' };
  // "someone else might use it": given away
  if (said(text, ['donate', 'give away', 'charity']) || SOMEONE_ELSE.test(text)) return { kind: 'donate' };
  if (said(text, ['recycle', 'recycled', 'recycling'])) return { kind: 'recycle' };
  // "compost it", "in the compost": out to the compost
  if (said(text, ['compost', 'composted', 'composting'])) return { kind: 'place', location: 'the compost' };
  // "they're my partner's", "it belongs to my son": back to whoever it is, not a place called "son"
  const owner = OWNED_BY.exec(text);
  const who = owner?.[1] ?? owner?.[2];
  if (who) return { kind: 'place', location: `your ${who.toLowerCase()}` };
  // "it can be fixed", "get it repaired": to the repair shop; "I'll fix it myself": it stays
  if (TO_BE_MENDED.test(text)) return { kind: 'place', location: 'the repair shop' };
  if (MENDS_IT.test(text)) return { kind: 'place', location: 'here' };
  const place = placeIn(text) ?? spotAlone(text) ?? awayAlone(text);
  if (place) return { kind: 'place', location: place };
  // "keep it", "it stays", "leave it": the thing stays where it is, whatever the proposal was
  // (a person who keeps the mug did not mean the kitchen the card proposed).
  if (said(text, ['keep', 'keeping', 'stays', 'stay', 'leave it', 'belongs here']))
    return { kind: 'place', location: 'here' };
  // "yes", "ok", "sounds good": the proposal as it stands ("definitely not" is no such yes).
  if (EMPHATIC_NO.test(text)) return null;
  if (said(text, [...YES_WORDS, 'ok', 'okay', 'fine', 'sounds good', 'agreed']))
    return choices[0]?.disposition ?? null;
  // "kitchn", "recyle", "drawr": one word with a slip of the keys, read as the word it nearly is
  const alone = /^\s*([a-z]+)[.!]*\s*$/i.exec(text)?.[1];
  const labels = choices.flatMap((c) => (c.label ?? '').toLowerCase().split(/[^a-z]+/));
  const meant = alone ? meantWord(alone, [...labels, ...ROOMS, ...SPOTS, ...DOINGS]) : undefined;
  return meant ? dispositionIn(meant, choices) : null;
}

/**
 * Where the words put the thing: a room by its name ("kitchen"), where it goes to ("to the
 * shed" → "shed"), or a spot with its preposition kept ("put it on the nightstand" → "on the
 * nightstand", which says where in the room).
 */
export function placeIn(text: string): string | null {
  const room = ROOMS.find((r) => said(text, [r]));
  if (room) return room;
  const placed =
    /\b(?:put|goes|go|belongs|move|take|keep|stays?|lives|hangs?)\b.*?\b(in|on|to|into|by|under|at|inside|behind|beside)\s+([^,;]+)/i.exec(
      text,
    );
  if (!placed?.[1] || !placed[2]) return null;
  // "in the shed really": a word after the place that colours the sentence is no part of it
  const where = placed[2]
    .replace(/[.!]+$/, '')
    .replace(TRAILING_FILLER, '')
    .trim();
  const preposition = placed[1].toLowerCase();
  return preposition === 'to' ? where.replace(/^(?:the|my|a)\s+/i, '') : `${preposition} ${where}`;
}

/** Someone to ask before it is decided: "they're my son's, I'll ask him", "let me check with my wife". */
const ASK_FIRST =
  /\b(?:(?:i'?ll|i will|let me|i need to|i have to|i should|i'd better|i must)\s+(?:ask|check with)|ask (?:him|her|them) first)\b/i;

/** Words that keep a thing to be used up: "I'll use them up first", "finish it off". */
const USED_UP = /\b(?:use|finish)\s+(?:it|them|those|these)\s+(?:up|off)\b/i;

/** Words that send a thing to be mended: "it can be fixed", "get them repaired". */
const TO_BE_MENDED =
  /\b(?:(?:can|could|should|will) be (?:fixed|repaired|mended)|get (?:it|them) (?:fixed|repaired|mended)|(?:to|take (?:it|them) to) (?:the |a )?repair (?:shop|caf[eé])|needs? (?:fixing|repairing|mending|to be (?:fixed|repaired|mended)))\b/i;
/** Words that mend it at home: "I'll fix it myself". */
const MENDS_IT = /\b(?:i|we)(?:'ll| will| can| could| am going to|'m going to) (?:fix|repair|mend)\b/i;

/** Places away from the home a thing is taken to, said alone at a card: "tip", "the dump", "pharmacy". */
const AWAY_ALONE =
  /^\s*(?:(?:to|off to|take (?:it|them) (?:back )?to|back to)\s+)?(?:the\s+|a\s+)?(tip|dump|car boot(?: sale)?|pharmacy|chemist)\s*[.!]*\s*$/i;

function awayAlone(text: string): string | null {
  const away = AWAY_ALONE.exec(text)?.[1]?.toLowerCase();
  return away ? `the ${away}` : null;
}

/** A thing said to be someone else's: "they're my partner's", "it belongs to my son". */
const OWNED_BY =
  /\b(?:(?:it'?s|its|they'?re|theyre|they are|it is|those are|that'?s|these are) (?:actually |all )?my ([a-z]+)'s\b|belongs? to my ([a-z]+)\b)/i;

/** Words after a place that colour the sentence: "really", "I guess", "for now". */
const TRAILING_FILLER =
  /(?:,?\s+(?:really|though|i guess|i think|i suppose|probably|mostly|anyway|honestly|actually|for now|now|already|again|too))+$/i;

/**
 * A spot named on its own, as the answer to where a thing goes: "on the nightstand", "in the
 * wardrobe". (Only at a proposal for a thing: elsewhere "in the evenings" is no place.)
 */
function spotAlone(text: string): string | null {
  // "drawer", "the shelf": a spot of the room named bare
  const bare = /^\s*(?:the\s+|my\s+)?([a-z]+?)s?\s*[.!]*\s*$/i.exec(text)?.[1]?.toLowerCase();
  if (bare && SPOTS.includes(bare)) return `${ON_SPOTS.has(bare) ? 'on' : 'in'} the ${bare}`;
  const spot =
    /^\s*(?:(?:just|maybe|probably|ok|okay)[,]?\s+)?((?:in|on|into|onto|under|inside|behind|beside|by|next to)\s+(?:the|my|a|its|our)\s+[a-z][a-z ]*?)\s*[.!]*\s*$/i.exec(
      text,
    );
  return spot?.[1]?.toLowerCase() ?? null;
}
