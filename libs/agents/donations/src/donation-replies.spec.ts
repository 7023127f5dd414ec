import { distance, listOf, notForGiving, whereTheyGo } from './donation-replies';
import type { Located } from './turn-reading';

const HERE = { lat: 51.5229, lng: -0.1256 };
const SHOP = {
  name: 'Hospice Charity Shop',
  address: '12 Marchmont Street, WC1N',
  opening: 'Mon–Sat 10:00–17:30',
  takes: ['clothes' as const, 'books' as const],
  km: 0.2,
};
const found = (item: string, extra: Partial<Located> = {}): Located => ({
  item,
  kind: 'clothes',
  located: true,
  near: HERE,
  collection: false,
  places: [SHOP],
  ...extra,
});

describe('what the helper says about where things go', () => {
  it.each([
    [0, 'right by you'],
    [0.2, '200 m away'],
    [2.1, '2.1 km away'],
  ])('%s km reads "%s"', (km, words) => expect(distance(km)).toBe(words));

  it('names things together as a person would', () => {
    expect(listOf(['kids clothes'])).toBe('the kids clothes');
    expect(listOf(['mugs', 'plates', 'lamp'])).toBe('the mugs, the plates and the lamp');
  });

  it('sends two things bound for one place there together, and offers its address once', () => {
    expect(whereTheyGo([found('kids clothes'), found('old books', { kind: 'books' })])).toEqual({
      text: 'Take the kids clothes and the old books to Hospice Charity Shop, 12 Marchmont Street, WC1N: 200 m away, open Mon–Sat 10:00–17:30.',
      copy: ['Hospice Charity Shop, 12 Marchmont Street, WC1N'],
    });
  });

  it('says to wipe a laptop before it is handed over', () => {
    expect(whereTheyGo([found('old laptop', { kind: 'electronics' })]).text).toMatch(
      /\. Before you hand over the old laptop, wipe it: a factory reset removes your files and accounts\.$/,
    );
    expect(whereTheyGo([found('kids clothes')]).text).not.toMatch(/wipe/);
  });

  it('says plainly it knows nothing near, with the true distance, and calls nothing near', () => {
    const { text, copy } = whereTheyGo([
      found('winter coat', { places: [], area: 'central London', nearestKm: 930.4 }),
    ]);
    expect(text).toMatch(
      /^I don't know any place near you that takes the winter coat: the places I know are in central London, about 930 km from you\. Instead, /,
    );
    expect(copy).toEqual([]);
  });

  it('mentions no distance when it knows no place at all that takes the thing', () =>
    expect(whereTheyGo([found('piano', { places: [] })]).text).toMatch(
      /^I don't know any place near you that takes the piano\. Instead, /,
    ));

  it('names the service that collects, and offers nothing to copy', () => {
    const service = { ...SHOP, name: 'Hospice Charity Shop home collection', servesKm: 5 };
    const { text, copy } = whereTheyGo([found('books', { collection: true, places: [service] })]);
    expect(text).toMatch(
      /^The books can be collected: Hospice Charity Shop home collection picks up from homes within 5 km/,
    );
    expect(copy).toEqual([]);
  });

  it('turns things away in its own voice, agreeing with each', () => {
    expect(
      notForGiving([
        { item: 'broken umbrella', kind: 'anything', donatable: false, instead: 'trash' },
        { item: 'old books', kind: 'books', donatable: false, condition: 'poor', instead: 'recycle' },
      ]),
    ).toBe(
      "The broken umbrella isn't something a charity shop could pass on, so it's for the bin. " +
        'Then the old books are best taken to recycling: charity shops can only pass on things in good condition.',
    );
  });

  it("says why a cot mattress is not passed on: a baby's sleep, not an accident", () => {
    expect(
      notForGiving([{ item: 'mattress for the cot', kind: 'anything', donatable: false, instead: 'safety' }]),
    ).toBe(
      "The mattress for the cot isn't passed on second-hand: a baby's mattress should be new, for safe sleep. " +
        'A household recycling centre takes it.',
    );
  });

  it('says why a car seat is not passed on, and where it goes instead', () => {
    expect(
      notForGiving([{ item: 'car seat from 2015', kind: 'anything', donatable: false, instead: 'safety' }]),
    ).toBe(
      "The car seat from 2015 isn't passed on second-hand: no one can vouch that it was never in an accident, " +
        'and it wears out with age. A household recycling centre takes it.',
    );
  });
});
