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
  ['electronics', /\b(lamps?|phones?|laptops?|radios?|speakers?|cables?|chargers?|headphones|monitors?)\b/],
  ['furniture', /\b(chairs?|tables?|desks?|shelf|shelves|sofas?|wardrobes?|drawers?|beds?|stools?)\b/],
];

export function kindOf(item: string): Kind {
  const text = item.toLowerCase();
  return WORDS.find(([, words]) => words.test(text))?.[0] ?? 'anything';
}

const ASKING =
  /^(?:(?:hi|hello|hey)[,!.]?\s+)?(?:(?:i(?:'d| would)?|we(?:'d| would)?)\s+(?:like|want|need)\s+to\s+|(?:can|could|may)\s+i\s+|please\s+|help\s+me\s+|where\s+can\s+i\s+)?(?:give\s+away|donate|get\s+rid\s+of|find\s+a\s+(?:home|place)\s+for|pass\s+on|drop\s+off)\s+/i;

/** The item a message names: "I'd like to give away my winter coat, please" → "winter coat". */
export function itemIn(text: string): string {
  const item = text
    .trim()
    .replace(ASKING, '')
    .replace(/[?!.]+$/, '')
    .replace(/,?\s*(please|thanks|thank you)$/i, '')
    .replace(/^(my|a|an|the|some|these|this|those|our)\s+/i, '')
    .trim();
  return item.length > 0 ? item.slice(0, 200) : text.trim().slice(0, 200);
}
