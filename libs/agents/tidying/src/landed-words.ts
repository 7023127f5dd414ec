import { isRightHere } from './pile-placement';
import { SPLIT_THRESHOLD } from './session-state';

/**
 * The coach's words once a card is answered: where the item landed, in the words of its pile,
 * and what comes next. The answer is structured (a tap), so the coach says this itself rather
 * than ask the model for it (seed 004: a structured response is processed by the backend).
 */

/** Where an answered card put its item, and how the session stands after it. */
export type LandedAt = {
  pile: 'belongs' | 'out' | 'unsure';
  destination?: string;
  unsure: number;
  phase: string;
  /** what the photos showed that is still to come */
  next?: string;
};

/** What propose_disposition answered, as its words (and the offline rules) read it. */
export type Landed = Partial<LandedAt> & {
  item?: string;
  disposition?: { kind?: string; location?: string };
  fallback?: boolean;
  /** the item was told all in its parts, each of which landed on its own */
  inParts?: boolean;
};

/**
 * Says where the item landed, in the words of its pile: "The coffee mug goes out, to the
 * kitchen.", "The books stay here.", "The lamp goes in the trash."
 */
export function whereItLanded(data: Landed): string {
  if (data.inParts) return `That's all of the ${data.item ?? 'thing'} sorted.`;
  const item = data.item ? `The ${data.item}` : 'That';
  const plural = data.item !== undefined && isPlural(data.item);
  const verb = (one: string, many: string) => (plural ? many : one);
  const to = data.destination ?? data.disposition?.location;
  // "go to charity" puts it where a donation does, "the recycling" where recycling does
  const kind = to === 'donation' ? 'donate' : to === 'recycling' ? 'recycle' : data.disposition?.kind;
  const where =
    data.pile === 'out'
      ? kind === 'trash'
        ? `${item} ${verb('goes', 'go')} in the trash.`
        : kind === 'donate'
          ? `${item} ${verb('goes', 'go')} in the donation bag.`
          : kind === 'recycle'
            ? `${item} ${verb('goes', 'go')} in the recycling.`
            : `${item} ${verb('goes', 'go')} out, to ${thePlace(to)}.`
      : data.pile === 'belongs'
        ? `${item} ${verb('stays', 'stay')} here${spot(data.disposition?.location)}.`
        : kind === 'need-more-info'
          ? `${item}: we need to know more first, so onto the unsure pile.`
          : `${item}: not now, onto the unsure pile.`;
  return where;
}

/** The preposition a spot may begin with ("on the nightstand"): where it is, said in words. */
const SPOT_PREPOSITION = /^(?:in|on|into|by|under|at|inside|behind|beside|next to|near)\s+/i;

/** Where a thing goes out to: "kitchen" → "the kitchen", "on the nightstand" → "the nightstand". */
export function thePlace(place: string | undefined): string {
  const bare = place?.trim().replace(SPOT_PREPOSITION, '');
  if (!bare) return 'its place';
  return /^(the|a|an|my|your|our|their|its)\b/i.test(bare) ? yours(bare) : `the ${bare}`;
}

/** The person's place said back to them: "my wardrobe", "our shed" → "your wardrobe", "your shed". */
export const yours = (place: string): string => place.replace(/\b(?:my|our)\b/gi, 'your');

/** Where in this space, when the words say more than "here": ", on the shelf", ", in the drawer". */
function spot(location: string | undefined): string {
  const at = location?.trim() ?? '';
  if (at === '' || isRightHere(at)) return '';
  return `, ${atTheSpot(at)}`;
}

/** A spot with the preposition it takes: "hooks" → "on the hooks", "door" → "by the door". */
function atTheSpot(at: string): string {
  if (SPOT_PREPOSITION.test(at)) return yours(at);
  // ("the drawer by the door" is a drawer: in it, not by it)
  const head = at.split(/\s+(?:by|on|in|under|near|next to|beside|behind|above|below|of)\s+/i)[0] ?? at;
  return `${SURFACE.test(head) ? 'on' : BESIDE.test(head) ? 'by' : 'in'} ${thePlace(at)}`;
}

/** Moving a thing to its spot in this space: "Put the coats on the hooks." */
export function putWords(it: string, at: string): string {
  return `Put ${it} ${atTheSpot(at.trim())}.`;
}

/** Where things stand beside, not inside: "by the door", not "in the door". */
const BESIDE = /\b(?:door|window|radiator|fireplace|entrance|stairs)$/i;

/** Where things go on top, not inside: "on the shelf", not "in the shelf". */
const SURFACE =
  /\b(?:shelf|shelves|desk|table|nightstand|counter|worktop|windowsill|sill|dresser|sideboard|ledge|rack|hooks?|pegs?|hangers?|coat stand|mantelpiece|bed|chair|sofa|couch|ironing board)$/i;

/**
 * "mugs", "a pile of books" → no, a pile; "a mug for pens" → no, a mug; "glasses" → yes: the noun
 * the verb agrees with, the one before the first preposition.
 */
export function isPlural(item: string): boolean {
  const words = item.toLowerCase().trim().split(/\s+/);
  // ("shoes that hurt your feet": the thing is named before what is said of it)
  const at = words.findIndex((w) => /^(?:of|for|with|from|that|which)$/.test(w));
  const head = words[at - 1] ?? words.at(-1) ?? '';
  return /[^su]s$/.test(head) || /(ches|shes|sses|xes)$/.test(head);
}

/** Says where the item landed, then what comes next. */
export function landedText(data: Landed): string {
  return `${whereItLanded(data)} ${whatComesNext(data)}`;
}

/** What the coach asks for once a thing has landed: the pile to split, the next thing, or what is next. */
export function whatComesNext(data: Partial<LandedAt>): string {
  const unsure = data.unsure ?? 0;
  return data.phase === 'sorting' && unsure > SPLIT_THRESHOLD
    ? `That makes ${unsure} unsure: say go and we will split that pile.`
    : data.phase === 'refining'
      ? 'Say go for the next one.'
      : data.next
        ? nextThingWords(data.next)
        : 'What did you pick up next?';
}

/**
 * The coach's words for taking a thing to its place: "Take the books to the shelf.", "Put them in
 * the donation bag.", "The lamp stays here."
 */
export function takeWords(it: string, location: string | undefined): string {
  // kept where it is: "The lamp stays here.", not "Take the lamp to its place in this space."
  if (location !== undefined && isRightHere(location))
    return it === 'it'
      ? 'It stays here.'
      : it === 'them'
        ? 'They stay here.'
        : whereItLanded({ item: it.replace(/^the /, ''), pile: 'belongs' });
  return location === 'donation'
    ? `Put ${it} in the donation bag.`
    : location === 'recycling'
      ? `Put ${it} in the recycling.`
      : location !== undefined && /^(?:upstairs|downstairs)$/.test(location)
        ? // up or down the stairs is said as it is: "Take the winter coats upstairs."
          `Take ${it} ${location}.`
        : `Take ${it} to ${thePlace(location)}.`;
}

/** The coach names the next thing still to go, so "go" is enough to carry on. */
export const nextThingWords = (next: string): string =>
  `Next, ${thePlace(next)}: say go, or tell me what you picked up.`;
