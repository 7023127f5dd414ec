import { distribute } from '../src/categories';
import { parseGrouping } from '../src/observation';
import { mkCategoryName, mkItemName, type CategoryName, type ItemName } from '../src/tidying-types';

const item = (name: string): ItemName => {
  const made = mkItemName(name);
  if (!made.ok) throw new Error(name);
  return made.value;
};
const category = (name: string): CategoryName => {
  const made = mkCategoryName(name);
  if (!made.ok) throw new Error(name);
  return made.value;
};
const PILE = ['old letters', 'receipts', 'cable', 'charger', 'vase'].map(item);

describe("the unsure pile grouped by the model (seed 000's emergent categories)", () => {
  it('names the groups biggest first and places each thing as listed, whatever its case', () => {
    const grouped = parseGrouping(
      {
        categories: [
          { name: 'odds and ends', items: ['vase'] },
          { name: 'letters and receipts', items: ['Old Letters', 'receipts'] },
          { name: 'cables', items: ['cable', 'charger', 'a lamp nobody mentioned'] },
        ],
      },
      PILE,
    );
    expect(grouped?.categories).toEqual(['letters and receipts', 'cables', 'odds and ends']);
    expect(grouped?.assignment).toEqual({
      'old letters': 'letters and receipts',
      receipts: 'letters and receipts',
      cable: 'cables',
      charger: 'cables',
      vase: 'odds and ends',
    });
  });

  it('is no grouping when it places fewer than half the things, or names no group', () => {
    expect(parseGrouping({ categories: [{ name: 'misc', items: ['vase', 'cable'] }] }, PILE)).toBeNull();
    expect(parseGrouping({ categories: [{ name: '  ', items: PILE }] }, PILE)).toBeNull();
    expect(parseGrouping({ categories: 'papers' }, PILE)).toBeNull();
  });

  it('puts each thing in its drawn group; a thing it did not place goes by its kind', () => {
    const piles = distribute(PILE, [category('letters and receipts'), category('electronics')], {
      'old letters': category('letters and receipts'),
      receipts: category('letters and receipts'),
    });
    // cable and charger by kind (electronics); the vase, of no kind here, joins the first group
    expect(piles.get(category('letters and receipts'))).toEqual(['old letters', 'receipts', 'vase']);
    expect(piles.get(category('electronics'))).toEqual(['cable', 'charger']);
  });
});
