import type { Kind } from './drop-off-directory';

/** The kind of place that takes an item, by the words that name it; `anything` when none fit. */
const WORDS: readonly [Kind, RegExp][] = [
  [
    'clothes',
    /\b(coats?|jackets?|shirts?|t-shirts?|jeans|trousers|dress(es)?|skirts?|jumpers?|sweaters?|scarf|scarves|hats?|shoes?|boots?|socks?|clothes)\b/,
  ],
  ['books', /\b(books?|novels?|paperbacks?|comics?|cookbooks?)\b/],
  ['toys', /\b(toys?|games?|puzzles?|lego|dolls?|teddy|teddies)\b/],
  ['kitchenware', /\b(mugs?|cups?|plates?|bowls?|pans?|pots?|cutlery|glasses|kettle|toaster)\b/],
  [
    'electronics',
    /\b(lamps?|phones?|laptops?|radios?|speakers?|cables?|chargers?|headphones|monitors?|electricals?|electrical items|small appliances)\b/,
  ],
  ['furniture', /\b(chairs?|tables?|desks?|shelf|shelves|sofas?|wardrobes?|drawers?|beds?|stools?)\b/],
];

/**
 * The kind of place that takes `item`, by the words in its name.
 *
 * @example
 * kindOf('kids clothes'); // 'clothes'
 */
export function kindOf(item: string): Kind {
  const text = item.toLowerCase();
  return WORDS.find(([, words]) => words.test(text))?.[0] ?? 'anything';
}

/** Things that come as they are, one piece, never in bags or boxes: furniture and other bulky things. */
const BULKY =
  /\b(bikes?|bicycles?|prams?|buggy|buggies|pushchairs?|cots?|fridges?|freezers?|washing machines?|tvs?|televisions?|mattress(es)?|pianos?|treadmills?)\b/;
/** A device is one piece too (a laptop is one laptop, not a bag of them), when it is the thing named: not "phone chargers". */
const DEVICE = /^(?:laptops?|computers?|monitors?|printers?|tablets?|phones?)$/;

/** Names of many things at once that are not plural in form: they come in bags too. */
const MASS =
  /^(?:clothing|bedding|linen|crockery|cutlery|kitchenware|stuff|lego|knitwear|footwear|jewellery|jewelry|stationery|yarn|fabric)$/;

/**
 * Whether the helper asks how many bags or boxes of `item` there are: for things that come many
 * at a time ("kids clothes", "bedding"); not for one thing named as one ("a winter coat", "the
 * kettle"), nor a sofa, a bike or a laptop however many.
 *
 * @example
 * comesInBags('kids clothes'); // true
 * comesInBags('winter coat'); // false
 * comesInBags('old sofa'); // false
 */
export function comesInBags(item: string): boolean {
  const text = item.toLowerCase();
  const words = text.trim().split(/\s+/);
  // the thing named: the word before "of", "for"…, or the last ("old laptop", "laptop for school")
  const at = words.findIndex((w) => /^(?:of|for|with|from)$/.test(w));
  const head = words[at - 1] ?? words.at(-1) ?? '';
  // "a box of lego", "a bag of toys": the things inside are many, whatever holds them
  const many = CONTAINER.test(head) || MASS.test(head) || isPluralWord(head);
  return many && kindOf(item) !== 'furniture' && !BULKY.test(text) && !DEVICE.test(head);
}

/** What holds many things: "a box of …", "a set of …". */
const CONTAINER = /^(?:box(?:es)?|bags?|sacks?|crates?|piles?|stacks?|sets?|loads?|bunch(?:es)?|collection)$/;

/** Names that are plural without ending in a plain "s". */
const PLURAL_WORDS = /^(?:clothes|jeans|trousers|shorts|pyjamas|pajamas|children|people|scissors|glasses)$/;

/** A word in the plural: "mugs", "clothes"; not "glass", "bus" or "dress". */
export function isPluralWord(word: string): boolean {
  return PLURAL_WORDS.test(word) || (/[^s]s$/i.test(word) && !/(?:ss|us|is)$/i.test(word));
}
