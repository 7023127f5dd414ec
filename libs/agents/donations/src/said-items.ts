/**
 * Reading what a person says as a person would: the things in a sentence, whether they would
 * rather it were collected, and whether a word about a thing's age says anything about whether it
 * can be given away. Plain patterns, the same every time, for the offline model and the tools.
 */

import { isPluralWord } from './item-kind';

/** More than this many things in one message are taken a few at a time: each costs questions. */
export const MAX_ITEMS_AT_ONCE = 4;

/** A part longer than this is a sentence of the person's own, not the name of a thing. */
const MAX_ITEM_WORDS = 5;

const GREETING = /^(?:(?:hi|hello|hey|good (?:morning|afternoon|evening))(?:\s+there)?[,!.]?\s*)+/i;

/**
 * Ways of asking for collection: "I'd rather it were collected", "can someone pick it up?",
 * "could you collect them", "for collection", "a pick-up". Removed from the text before the
 * things are read, so they never become an item.
 */
const COLLECTION =
  /(?:,?\s*(?:but\s+|and\s+)?(?:i(?:'d| would)\s+(?:rather|prefer|like)|i\s+(?:want|need|prefer)|we(?:'d| would)\s+(?:rather|prefer|like))\s+(?:it|them|that|those|this|these|someone|somebody|you)?\s*(?:to\s+)?(?:were|was|be|to\s+be|is|are|get|gets|got)?\s*(?:collected|picked\s+up|to\s+collect|to\s+pick\s+(?:it|them)\s+up)\b|,?\s*(?:can|could|would|will)\s+(?:someone|somebody|you|anyone|they)\s+(?:please\s+)?(?:collect|pick\s+(?:(?:it|them|this|these|that|those)\s+)?up|come\s+(?:and|to)\s+(?:get|collect|pick\s+up))(?:\s+(?:it|them|this|these|that|those))?(?:\s+up)?|,?\s*(?:for|by|with)\s+(?:a\s+)?(?:home\s+)?(?:collection|pick-?\s?up)\b|,?\s*(?:to\s+be|that\s+can\s+be|to\s+get)\s+(?:collected|picked\s+up))/gi;

/** Words a person leads with before naming their things. */
const LEAD =
  /^(?:(?:so|well|ok|okay|um|right)[,]?\s+)?(?:(?:(?:i|we)(?:'ve|\s+have)?\s+)?got|(?:i|we)\s+have|have(?=\s+(?:a|an|some|two|three|\d+|loads?|lots|a\s+few|my|our)\s)|(?:(?:i'm|i\s+am|we're|we\s+are)\s+)?(?:getting\s+rid\s+of|giving\s+away|donating|clearing\s+out)|(?:i|we)(?:'d|\s+would)?\s+(?:like|want|need|love)\s+to\s+(?:give\s+away|donate|get\s+rid\s+of|pass\s+on|drop\s+off|find\s+a\s+(?:home|place)\s+for)|(?:i|we)\s+(?:want|need)\s+(?:to\s+)?(?:give\s+away|donate|get\s+rid\s+of)|(?:can|could|may)\s+(?:i|we)\s+(?:give\s+away|donate|drop\s+off|get\s+rid\s+of)|where\s+can\s+(?:i|we)\s+(?:give\s+away|donate|drop\s+off|take|get\s+rid\s+of)|(?:please\s+)?help\s+me\s+(?:give\s+away|donate|get\s+rid\s+of|find\s+a\s+(?:home|place)\s+for)|(?:can|could)\s+you\s+(?:please\s+)?find\s+(?:somewhere|a\s+(?:new\s+)?(?:home|place))\s+for|there(?:'s|\s+is|\s+are)|here(?:'s|\s+is|\s+are)|(?:and\s+)?(?:what|how)\s+about|(?:do|does|would|will|can|could)\s+(?:you|they|anyone|charities|charity\s+shops)\s+(?:take|accept|want)|(?:please\s+)?(?:give\s+away|donate|get\s+rid\s+of|pass\s+on|drop\s+off|find\s+a\s+(?:home|place)\s+for))\s+/i;

/**
 * A thing asked after by whether it may be given: "is the cot mattress ok to give?", "are old
 * towels fine to donate?", "would a used car seat be ok for charity?". The thing is what is asked after.
 */
const ASKED_IF_FIT =
  /^(?:is|are|would|will)\s+(.+?)\s+(?:be\s+)?(?:ok(?:ay)?|alright|all\s+right|fine|safe|good\s+enough|suitable|acceptable|allowed)\s+(?:to\s+(?:give(?:\s+away)?|donate|pass\s+on)|for\s+(?:donation|donating|(?:a\s+)?charity(?:\s+shops?)?))\b.*$/i;

/** Words a person ends with after naming their things: what they want done, and politeness. */
const TAIL =
  /\s+(?:(?:that|which)\s+)?(?:(?:i|we)(?:'d|\s+would)?\s+(?:like|want|need)\s+to\s+|(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:hoping|looking|trying)\s+to\s+|to\s+|for\s+)?(?:give\s+away|donate|get\s+rid\s+of|pass\s+on|drop\s+off|donation|donating|giving\s+away)\b.*$|\s+(?:(?:that|which)\s+)?(?:i|we)\s+(?:no\s+longer|don't|do\s+not|never)\s+(?:need|use|want|wear|read).*$|\s+(?:(?:that|which)\s+)?(?:(?:the|my|our|his|her)\s+)?(?:kids?|children|child|son|daughter|baby|boys?|girls?|little\s+ones?)\s+(?:(?:has|have)\s+)?(?:outgrown|grew\s+out\s+of|grown\s+out\s+of|stopped\s+using|no\s+longer\s+uses?|doesn't\s+use|don't\s+use|never\s+uses?)\b.*$/i;

const POLITE = /,?\s*(?:please|thanks|thank\s+you|cheers)\s*$/i;

/**
 * What comes before a thing's name and is not part of it: "a bag of", "some", "my", "two boxes of",
 * and whose it was ("my son's old bike" is an old bike: "the son's old bike" reads wrong back).
 */
const BEFORE_THING =
  /^(?:(?:a|an|the|my|our|his|her|their|some|these|those|this|that|a\s+few|few|several|lots\s+of|a\s+lot\s+of|lot\s+of|loads\s+of|plenty\s+of|a\s+couple\s+of|couple\s+of|one|two|three|four|five|\d+)\s+|(?:son|daughter|kid|kids|child|children|baby|mum|mom|mother|dad|father|husband|wife|partner|brother|sister|gran|grandma|grandad|grandpa|nan|friend|flatmate|roommate)(?:'s|s')\s+|(?:full\s+)?(?:bin\s+)?(?:bags?|box(?:es)?|piles?|stacks?|loads?|sacks?|crates?|cartons?|heaps?|bunch(?:es)?|sets?|pairs?)\s+(?:full\s+)?of\s+)/i;

/** The place being cleared, not a thing in it: "(clearing out) my mum's flat", "the garage". */
const CLEARED_PLACE =
  /^(?:[a-z]+'s\s+)?(?:flat|house|home|garage|loft|attic|shed|cellar|basement|apartment|place|room|bedroom|spare\s+room|office|storage\s+unit)$/i;

/** The asking alone, with nothing named: "donate", "give away". */
const BARE_ASKING = /^(?:give\s+away|donate|get\s+rid\s+of|pass\s+on|drop\s+off|collect(?:ion)?|pick\s+up)$/i;

/** Words that are a person speaking, not the name of a thing: "I", "is", "do", "they're". */
const SPEAKING =
  /\b(?:i|i'm|im|i'd|i've|ive|we|we're|you|it|it's|that's|thats|they|they're|theyre|they've|he|she|is|are|was|were|have|has|had|do|does|did|can|could|would|should|will|what|where|how|why|when|passed|died)\b/i;

/**
 * A part that says more of the thing named before it, not a thing of its own: "kids clothes,
 * mostly size 4-6", "a pram, barely used", "a lamp, in good condition", "a desk, with its chair";
 * a reply word leading a part ("yes, mostly") names nothing either.
 */
const DESCRIBES =
  /^(?:yes|yeah|yep|no|nope|ok(?:ay)?|sure|mostly|mainly|largely|size[sd]?|ages?|aged|about|around|roughly|approx(?:imately)?|barely|hardly|lightly|never|nearly|almost|still|(?:only|just)\s+used|used\s+(?:for|by|once|twice|only|a\s+few|a\s+couple)|in\s+(?:good|great|ok|okay|fair|decent|perfect|excellent|working|mint)\b|like\s+new|brand\s+new|with)\b/i;

/**
 * What a part says of its thing after naming it: "an old kettle that still works", "a lamp which
 * needs a new plug". The thing is named before it.
 */
const SAID_OF_IT = /\s+(?:that|which)\s+.*$/i;

/** "about" before how many there are: "about 4 boxes of books", "around two bags of toys". */
const ROUGHLY_SO_MANY =
  /^(?:about|around|roughly|approx(?:imately)?|maybe)\s+(?=(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple)\s)/i;

/** When, said after the things ("…, can someone pick them up tomorrow?"): no part of their name. */
const WHEN =
  /\s+(?:today|tonight|tomorrow|this\s+(?:week(?:end)?|morning|afternoon|evening)|next\s+week|asap|soon|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/i;

/** A part that is only manners: "thanks, bye", "cheers". */
const PLEASANTRY =
  /^(?:thanks|thank\s+you|ta|cheers|bye|goodbye|bye\s+bye|see\s+you|ok(?:ay)?|great|perfect|lovely|brilliant|amazing|awesome|fantastic|fab|super|cool)[!.]*$/i;

/** A part that only says how much there is ("just one box", "two bags"): an amount, not a thing. */
const AMOUNT_ONLY =
  /^(?:(?:just|only|about|around)\s+)?(?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple(?:\s+of)?|\d+)\s+(?:(?:big|small|large)\s+)?(?:bags?|box(?:es)?|sacks?|crates?|cartons?|loads?)$/i;

/**
 * The things a message names, as the person named them, without the words around them: "I have a
 * bag of kids clothes and some old books to give away" → ["kids clothes", "old books"]. A part
 * that still reads as a sentence of the person's own is left out rather than quoted as a thing,
 * so a message that names nothing gives none.
 *
 * @example
 * itemsIn("I'd like to give away my winter coat, please"); // ["winter coat"]
 * itemsIn("I'd rather it were collected"); // []
 */
export function itemsIn(text: string): string[] {
  // "I'm clearing out my mum's flat. There's a table, …" and "clearing out the garage: a bike, …":
  // each sentence leads with its own words
  const parts = text
    .trim()
    .split(/(?<=[.!?;:])\s+/)
    .flatMap((sentence) =>
      sentence
        .replace(GREETING, '')
        .replace(COLLECTION, '')
        .replace(/[?!.]+\s*$/, '')
        .replace(POLITE, '')
        .replace(LEAD, '')
        .replace(POLITE, '')
        .trim()
        .split(/\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&|plus|as\s+well\s+as)\s+/i),
    );
  const items: string[] = [];
  for (const part of parts) {
    // each part may lead with its own "I have" ("we're moving, I have a sofa and …") and end with
    // its own "my son has outgrown"; "about 4 boxes of books" says how many, not what it is like
    const said = part
      .replace(/[?!.;:]+$/, '')
      .replace(ASKED_IF_FIT, '$1')
      .replace(LEAD, '')
      .replace(TAIL, '')
      .replace(ROUGHLY_SO_MANY, '')
      .replace(WHEN, '')
      .trim();
    if (DESCRIBES.test(said) || AMOUNT_ONLY.test(said) || PLEASANTRY.test(said)) continue;
    const item = withoutWordsBefore(said.replace(SAID_OF_IT, ''));
    if (item === '' || BARE_ASKING.test(item) || CLEARED_PLACE.test(item) || !namesAThing(item)) continue;
    if (!items.some((known) => known.toLowerCase() === item.toLowerCase())) items.push(asNamed(item));
  }
  return items.slice(0, MAX_ITEMS_AT_ONCE).map((item) => item.slice(0, 200));
}

/** "Books" at the start of a sentence is "books" in the middle of one; "LEGO" stays as written. */
function asNamed(item: string): string {
  const first = item.split(/\s+/)[0] ?? '';
  return first === first.toUpperCase() ? item : item.charAt(0).toLowerCase() + item.slice(1);
}

function withoutWordsBefore(part: string): string {
  let item = part;
  for (let before = ''; before !== item;) {
    before = item;
    item = item.replace(BEFORE_THING, '').trim();
  }
  return item;
}

function namesAThing(item: string): boolean {
  // "high chair with a missing strap" is five words of name: the articles inside it are not counted
  const words = item.split(/\s+/).filter((w) => !/^(?:a|an|the)$/i.test(w));
  return words.length <= MAX_ITEM_WORDS && !SPEAKING.test(item) && /[a-z]/i.test(item);
}

/** Words that say a thing is fit to pass on: it works, it is in good condition, it is as new. */
const GOOD_AS_SAID =
  /^(?:(?:that|which)(?:'s|\s+is|\s+are)?\s+)?(?:still\s+)?(?:works?(?:\s+(?:fine|well|perfectly))?|working|in\s+(?:good|great|perfect|excellent|working)\s+(?:condition|order|nick)|like\s+new|as\s+new|(?:barely|hardly|never)\s+used)\b/i;

/**
 * Whether the words right after a thing's name say it is in good condition ("an old kettle that
 * still works", "my old bike, in good condition"), so no one asks them again.
 *
 * @example
 * saidGood('I have an old kettle that still works', 'old kettle'); // true
 * saidGood('I have an old kettle', 'old kettle'); // false
 */
export function saidGood(text: string, item: string): boolean {
  const at = text.toLowerCase().indexOf(item.toLowerCase());
  if (at < 0) return false;
  const after = text.slice(at + item.length).replace(/^\s*,?\s*/, '');
  return GOOD_AS_SAID.test(after) && !DAMAGED.test(after.split(/,|\band\b/i)[0] ?? '');
}

const COUNTS = ['a', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

/**
 * How many bags or boxes of `item` the words said there are ("a bag of kids clothes" → 1, "two
 * boxes of toys" → 2, "3 bags of books" → 3), so the form does not ask it again; undefined when
 * they did not say.
 *
 * @example
 * bagsOf('I have a bag of kids clothes and an old kettle', 'kids clothes'); // 1
 * bagsOf('I have a bag of kids clothes and an old kettle', 'old kettle'); // undefined
 */
export function bagsOf(text: string, item: string): number | undefined {
  const name = item.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const said = new RegExp(
    `\\b(an?|one|two|three|four|five|six|seven|eight|nine|ten|\\d+)\\s+(?:(?:big|small|large|full)\\s+)?(?:bin\\s+)?(?:bags?|box(?:es)?|sacks?|crates?|cartons?)\\s+(?:full\\s+)?of\\s+(?:(?:the|my|our|his|her|their|some|old)\\s+)?${name}\\b`,
    'i',
  ).exec(text);
  const count = said?.[1]?.toLowerCase();
  if (count === undefined) return undefined;
  const bags = /^\d+$/.test(count)
    ? Number(count)
    : Math.max(COUNTS.indexOf(count === 'an' ? 'a' : count), 1);
  return bags >= 1 && bags <= 10 ? bags : undefined;
}

/**
 * Whether the person asks for their things to be collected rather than taken somewhere.
 *
 * @example
 * wantsCollection("I'd rather it were collected"); // true
 * wantsCollection('a winter coat'); // false
 */
export function wantsCollection(text: string): boolean {
  COLLECTION.lastIndex = 0;
  const asked =
    COLLECTION.test(text) || /\b(?:collect(?:ed|ion)?|pick(?:ed)?[\s-]?(?:(?:it|them)\s+)?up)\b/i.test(text);
  COLLECTION.lastIndex = 0;
  return asked && !/\b(?:no|not|don't|do not|rather not)\s+(?:\w+\s+){0,3}(?:collect|pick)/i.test(text);
}

/** Words right after a thing's name that say it no longer works: "that doesn't heat anymore", "which is broken". */
const BROKEN_AS_SAID =
  /^(?:(?:that|which)(?:'s|\s+is|\s+are)?\s+)?(?:(?:is|are|'s)\s+)?(?:(?:doesn'?t|does\s+not|don'?t|do\s+not|won'?t|will\s+not|no\s+longer|can'?t)\s+(?:work|heat|turn\s+on|switch\s+on|charge|hold\s+a\s+charge|spin|boot|start|light(?:\s+up)?|cool|play)s?|broken|dead|bust(?:ed)?|(?:has\s+|have\s+)?(?:stopped\s+working|died|packed\s+up|given\s+up|blown))\b/i;

/**
 * Whether the words right after a thing's name say it no longer works ("an old microwave that
 * doesn't heat anymore", "my kettle, it's dead"), so it is not offered to a charity.
 *
 * @example
 * saidBroken("I have an old microwave that doesn't heat anymore", 'old microwave'); // true
 * saidBroken('an old kettle that still works', 'old kettle'); // false
 */
export function saidBroken(text: string, item: string): boolean {
  const at = text.toLowerCase().indexOf(item.toLowerCase());
  if (at < 0) return false;
  const after = text
    .slice(at + item.length)
    .replace(/^\s*,?\s*(?:(?:but|and)\s+)?(?:it|they)?(?='|\s|$)/i, '')
    .trim();
  return BROKEN_AS_SAID.test(after);
}

/** Electricals: never the bin, working or not (a household recycling centre takes them broken). */
const ELECTRICAL =
  /\b(?:microwaves?|toasters?|kettles?|lamps?|hair ?dryers?|hairdryers?|irons?|heaters?|fans?|blenders?|mixers?|vacuums?|hoovers?|radios?|tvs?|televisions?|laptops?|computers?|phones?|printers?|speakers?|consoles?|fridges?|freezers?|washing machines?|dishwashers?|electricals?|chargers?|cables?|headphones|monitors?|straighteners|toothbrush(?:es)?|shavers?|drills?)\b/i;

/**
 * Whether `item` is an electrical, which goes to a household recycling centre when it cannot be
 * given, never the bin.
 *
 * @example
 * electrical('old microwave'); // true
 * electrical('broken umbrella'); // false
 */
export function electrical(item: string): boolean {
  return ELECTRICAL.test(item);
}

/** Words that tell of a death: "my nan passed away", "since dad died", "after the funeral". */
const A_LOSS =
  /\b(?:passed\s+(?:away|on)|died|funeral|bereave\w*|lost\s+(?:my|our|her|his)\s+(?:nan|nana|gran|granny|grandma|grandad|grandpa|grandmother|grandfather|mum|mom|mother|dad|father|husband|wife|partner|brother|sister|aunt|auntie|uncle|son|daughter))\b/i;

/**
 * Whether the words tell of a loss, which the helper meets with sympathy before anything else.
 *
 * @example
 * tellsOfALoss('my nan passed away and we need to clear her flat'); // true
 * tellsOfALoss('a sofa and a lamp'); // false
 */
export function tellsOfALoss(text: string): boolean {
  return A_LOSS.test(text);
}

/** Words that say a thing cannot be given away, whatever else is said about it. */
const DAMAGED =
  /\b(broken|torn|ripped|stained|mouldy|moldy|cracked|smashed|damaged|leaking|leaky|empty|used[\s-]up|wrappers?|trash|rubbish|holes?|missing)\b/i;
/** Words about a thing's age or use, which say nothing about whether someone else would want it. */
const AGED = /\b(old|older|used|worn|second[\s-]?hand|pre-?loved|outgrown|vintage|spare|unused|unwanted)\b/i;

/** Things no one passes on, however good: they go to a recycling point that takes them. */
const RECYCLED_ONLY =
  /\b(batter(?:y|ies)|light ?bulbs?|bulbs?|ink|toner|cartridges?|paint|paint tins?|aerosols?)\b/i;

/**
 * Whether `item` only ever goes to a recycling point, whatever its condition: batteries, bulbs,
 * ink cartridges, paint.
 *
 * @example
 * recycledOnly('old batteries'); // true
 * recycledOnly('old books'); // false
 */
export function recycledOnly(item: string): boolean {
  return RECYCLED_ONLY.test(item);
}

/** Medicines, which no one passes on: a pharmacy takes them back ("tablets" alone may be a computer). */
const MEDICINES =
  /\b(?:medicines?|medications?|meds|pills|painkillers|paracetamol|ibuprofen|aspirin|prescriptions?|antibiotics|inhalers?|cough (?:syrup|mixture|medicine))\b/i;

/**
 * Whether `item` is a medicine, which goes back to a pharmacy, never to a charity or the bin.
 *
 * @example
 * forThePharmacy('old medicines'); // true
 * forThePharmacy('old tablets'); // false (an iPad, as likely)
 */
export function forThePharmacy(item: string): boolean {
  return MEDICINES.test(item);
}

/**
 * Things kept safe only while their history is known, so never passed on second-hand: a car seat
 * (it may have been in a crash, and it expires), a cycle helmet, a cot mattress.
 */
const SAFETY_FIRST =
  /\b(?:(?:baby |child |kids? |booster )?car ?seats?|booster seats?|(?:cycle |bike |bicycle |riding )?helmets?|(?:cot|crib|moses basket) mattress(?:es)?|mattress(?:es)? (?:for|from) (?:the |a |my |our )?(?:cot|crib|moses basket))\b/i;

/**
 * Whether `item` is never passed on second-hand for safety, whatever its condition: car seats,
 * helmets, cot mattresses.
 *
 * @example
 * safetyFirst('car seat from 2015'); // true
 * safetyFirst('high chair'); // false
 */
export function safetyFirst(item: string): boolean {
  return SAFETY_FIRST.test(item);
}

/** What a small child uses, so passed on only whole: a high chair, a cot, a stair gate, a teddy (a loose eye is a choking risk). */
const FOR_A_CHILD =
  /\b(?:toys?|teddy|teddies|soft toys?|dolls?|high ?chairs?|(?:travel )?cots?|cribs?|moses baskets?|prams?|buggy|buggies|pushchairs?|strollers?|(?:stair|baby) gates?|baby walkers?|bouncers?|playpens?|baby carriers?|(?:bike|child) seats?)\b/i;

/**
 * Whether `item` is a child's thing whose name says it is damaged or missing a part ("high chair
 * with a missing strap", "cot with a broken slat"): unsafe for another child as it is, so no
 * charity passes it on, however the rest of it looks.
 *
 * @example
 * unsafeForAChild('high chair with a missing strap'); // true
 * unsafeForAChild('high chair'); // false
 */
export function unsafeForAChild(item: string): boolean {
  return FOR_A_CHILD.test(item) && DAMAGED.test(item);
}

/**
 * Whether only the person can say if the thing is fit to give: its name speaks of its age or use
 * ("old books", "used toys") and of no damage. An old thing is not a broken one; the helper asks.
 * Of old batteries there is nothing to ask: they are recycled, whatever their condition.
 *
 * @example
 * conditionInDoubt('old books'); // true
 * conditionInDoubt('broken old umbrella'); // false: it is broken
 */
export function conditionInDoubt(item: string): boolean {
  return AGED.test(item) && !DAMAGED.test(item) && !recycledOnly(item) && !safetyFirst(item);
}

/**
 * Whether a thing's name is plural, so a sentence about it agrees: "Are the old books …",
 * "Is the kettle …".
 *
 * @example
 * isPlural('kids clothes'); // true
 * isPlural('winter coat'); // false
 */
export function isPlural(item: string): boolean {
  return isPluralWord((item.trim().split(/\s+/).at(-1) ?? '').toLowerCase());
}
