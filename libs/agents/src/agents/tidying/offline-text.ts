import type { Disposition, Json } from '@sweatpants/domain';

/**
 * What the offline model reads out of a tidying message, by keyword: deterministic stand-ins for
 * vision and extraction, good enough to walk the whole flow without a model.
 */

const ROOMS: readonly [string, RegExp][] = [
  ['office', /\b(desk|office|computer|monitor|study)\b/],
  ['bedroom', /\b(bed|bedroom|wardrobe|dresser|nightstand)\b/],
  ['kitchen', /\b(kitchen|counter|sink|stove|fridge)\b/],
  ['living room', /\b(sofa|couch|living|tv|coffee table)\b/],
  ['hallway', /\b(hall|hallway|entrance|shoes)\b/],
];

const THINGS =
  /\b(mugs?|cups?|papers?|lamps?|books?|cables?|chargers?|clothes|shirts?|socks?|boxes|box|bottles?|plates?|letters?|mail|toys?|shoes?|bags?|pens?|notebooks?|magazines?|dishes|glasses|laptops?|headphones|blankets?|pillows?)\b/g;

export interface OfflinePhoto {
  roomType: string;
  chaosLevel: 'buried' | 'cluttered' | 'moderate' | 'clear';
  visibleItems: string[];
  blockedFunction: string | null;
  firstTarget: string | null;
}

/** A plausible photo analysis from the words sent with the photo. */
export function photoFromWords(text: string): OfflinePhoto {
  const t = text.toLowerCase();
  const roomType = ROOMS.find(([, re]) => re.test(t))?.[0] ?? 'room';
  const chaosLevel = /\b(buried|can'?t see|everywhere|overflowing|drowning)\b/.test(t)
    ? 'buried'
    : /\b(clean|clear|tidy|finished)\b/.test(t) && !/\b(mess|messy|clutter)/.test(t)
      ? 'clear'
      : /\b(covered|mess|messy|piles?|cluttered|clutter|full)\b/.test(t)
        ? 'cluttered'
        : 'moderate';
  const visibleItems = [...new Set(t.match(THINGS) ?? [])];
  const blockedFunction =
    roomType === 'office' && /\bdesk\b/.test(t)
      ? "can't use the desk"
      : roomType === 'bedroom'
        ? "can't get into bed"
        : null;
  return { roomType, chaosLevel, visibleItems, blockedFunction, firstTarget: visibleItems[0] ?? null };
}

/** Likely purposes of a room, for ask_space_function's options. */
export function functionsFor(roomType: string): string[] {
  switch (roomType) {
    case 'office':
      return ['working', 'studying', 'making things'];
    case 'bedroom':
      return ['sleeping', 'getting dressed', 'relaxing'];
    case 'kitchen':
      return ['cooking', 'eating', 'making coffee'];
    default:
      return ['relaxing', 'working', 'storing things'];
  }
}

const ARTICLE =
  /\b(?:a|an|the|my|this|that|some|these|those)\s+([a-z][a-z ]*?)(?=\s+(?:goes|go|is|are|to|in|on|into|and|which|that|for|from)\b|[,.!?]|$)/;
const PLACE =
  /\b(?:goes|go|put it|put them|belongs?|keep it|keep them)\s+(?:in|on|into|at|to|by)\s+(?:the\s+|my\s+)?([a-z][a-z ]*?)(?=[,.!?]|$)/;
const FUNCTION =
  /\b(?:for|to)\s+(work|working|sleep|sleeping|read|reading|cook|cooking|relax|relaxing|study|studying)\b/;
/** A whole message that only says to go on: never an item. */
const GO_ON =
  /^(?:ok(?:ay)?|yes|yep|sure|go|go on|go ahead|next|ready|start|let'?s go|keep going|carry on|continue)[.!]*$/;
const ANXIETY =
  /\b(?:anxious|stressed|scared|worried|overwhelmed|panic\w*)\s+(?:about|by|of)\s+(?:the\s+|my\s+)?([a-z][a-z ]*?)(?=[,.!?]|$)/;

/** The extract the offline model records for a message, as the extraction tool's input. */
export function extractFromWords(text: string, phase: string): { [key: string]: Json } {
  const t = text.toLowerCase().trim();
  const place = PLACE.exec(t)?.[1]?.trim() ?? null;
  const fn = FUNCTION.exec(t)?.[1] ?? null;
  const anxiety = ANXIETY.exec(t)?.[1]?.trim() ?? null;
  const choice = /\b(trash|bin|toss|throw (?:it |them )?(?:out|away)|garbage|rubbish)\b/.test(t)
    ? 'trash'
    : /\b(not sure|unsure|maybe|idk|dunno|not now)\b/.test(t)
      ? 'unsure'
      : place
        ? 'place'
        : /\bkeep\b(?! going)/.test(t) && phase !== 'surveying'
          ? 'keep'
          : null;
  const goOn = GO_ON.test(t);
  const bare = t.replace(/^(?:a|an|the|my|this|that|some)\s+/, '');
  const named = goOn
    ? null
    : (ARTICLE.exec(t)?.[1]?.trim() ?? (t.split(/\s+/).length <= 3 && choice === null ? bare : null));
  const item = named && !/^(space|room|desk|mess)$/.test(named) ? named.replace(/[.!?]+$/, '') : null;
  const anchors = phase === 'surveying' && /\b(keep|stays?|staying)\b/.test(t) && item ? [item] : null;
  const intent = /\b(stop|enough|i'?m done|done for (?:today|now)|tired|finish)\b/.test(t)
    ? 'stop'
    : anxiety
      ? 'help'
      : /\b(stuck|help|can'?t decide|no idea)\b/.test(t)
        ? 'help'
        : choice
          ? 'decided'
          : goOn || /\b(let'?s go|start|ready|begin|go on|next|yes|ok(?:ay)?|keep going)\b/.test(t)
            ? 'start'
            : item
              ? 'item'
              : 'continue';
  return { intent, item, choice, place, function: fn, anchors, anxiety };
}

/** The dispositions the offline model proposes for an item: its best guess first. */
export function choicesFor(item: string): { label: string; disposition: Disposition }[] {
  const t = item.toLowerCase();
  if (/\b(mugs?|cups?|plates?|dishes|glass(es)?|bottles?)\b/.test(t))
    return [
      { label: 'Kitchen', disposition: { kind: 'place', location: 'kitchen' } },
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  if (/\b(papers?|letters?|mail|magazines?|receipts?)\b/.test(t))
    return [
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'File it', disposition: { kind: 'place', location: 'the filing box' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  if (/\b(broken|old|empty|wrapper|trash)\b/.test(t))
    return [
      { label: 'Trash', disposition: { kind: 'trash' } },
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  return [
    { label: 'Keep it here', disposition: { kind: 'place', location: 'its spot here' } },
    { label: 'Donate', disposition: { kind: 'donate' } },
    { label: 'Not now', disposition: { kind: 'skip' } },
  ];
}
