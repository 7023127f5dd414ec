import type { NonEmpty } from './session-state';
import { mkCategoryName, type Assignment, type CategoryName, type ItemName } from './tidying-types';

/**
 * Emergent categories for splitting the unsure pile, found by keyword so that `decide` stays pure
 * and deterministic: papers with papers, cables with cables, and everything else together.
 */
const KINDS: readonly { name: string; words: readonly string[] }[] = [
  {
    name: 'papers',
    words: [
      'paper',
      'letter',
      'mail',
      'post',
      'document',
      'receipt',
      'bill',
      'note',
      'book',
      'magazine',
      'flyer',
      'leaflet',
      'catalogue',
      'envelope',
      'statement',
      'homework',
      'worksheet',
    ],
  },
  {
    name: 'electronics',
    words: ['cable', 'charger', 'phone', 'device', 'battery', 'adapter', 'remote', 'laptop'],
  },
  {
    name: 'clothes',
    words: ['shirt', 'sock', 'jacket', 'clothes', 'jeans', 'sweater', 'scarf', 'shoe', 'hat'],
  },
  { name: 'kitchen things', words: ['mug', 'cup', 'plate', 'glass', 'bowl', 'bottle', 'spoon', 'fork'] },
  { name: 'keepsakes', words: ['photo', 'card', 'gift', 'souvenir', 'toy', 'keepsake'] },
];
const EVERYTHING_ELSE = 'everything else';

/** The category an item falls in. */
export function categoryOf(item: ItemName): CategoryName {
  const text = item.toLowerCase();
  const kind = KINDS.find((k) => k.words.some((w) => text.includes(w)));
  return brand(kind?.name ?? EVERYTHING_ELSE);
}

/** A name for a mix of things, any of which may be part of it: "the kids' school stuff", "that pile". */
const MIX = /\b(?:stuff|things|bits|pile|box|bag|mess|junk|clutter|odds and ends)$/i;

/**
 * Whether `part` may be one of the things `whole` is made of: anything of a mix ("the homework" of
 * the kids' school stuff), else a thing of the same kind ("the bills" of the post), never one of
 * no kind ("the stapler" of the papers).
 */
export function mayBePartOf(part: ItemName, whole: ItemName): boolean {
  if (MIX.test(whole.trim())) return true;
  const kind = categoryOf(whole);
  return kind !== EVERYTHING_ELSE && categoryOf(part) === kind;
}

/** The categories of a non-empty pile, biggest first (ties in the order above): never none. */
export function categoriesFor(items: NonEmpty<ItemName>): NonEmpty<CategoryName> {
  const counts = new Map<CategoryName, number>();
  for (const item of items) counts.set(categoryOf(item), (counts.get(categoryOf(item)) ?? 0) + 1);
  const order = [...KINDS.map((k) => k.name), EVERYTHING_ELSE];
  const sorted = [...counts.keys()].sort(
    (a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || order.indexOf(a) - order.indexOf(b),
  );
  const [first, ...rest] = sorted;
  return [first ?? categoryOf(items[0]), ...rest];
}

/**
 * Distributes items over the categories: where the assignment (the model's, drawn from the items)
 * puts it, else by its kind; an item whose category is not among them joins the first.
 */
export function distribute(
  items: readonly ItemName[],
  categories: NonEmpty<CategoryName>,
  assignment: Assignment = {},
): Map<CategoryName, readonly ItemName[]> {
  const piles = new Map<CategoryName, ItemName[]>(categories.map((c) => [c, []]));
  for (const item of items) {
    const assigned = assignment[item];
    const home =
      (assigned !== undefined ? piles.get(assigned) : undefined) ??
      piles.get(categoryOf(item)) ??
      piles.get(categories[0]);
    home?.push(item);
  }
  return piles;
}

function brand(name: string): CategoryName {
  const made = mkCategoryName(name);
  if (!made.ok) throw new Error(`category names are fixed and never blank: "${name}"`);
  return made.value;
}
