import {
  bagsOf,
  conditionInDoubt,
  electrical,
  isPlural,
  itemsIn,
  saidBroken,
  saidGood,
  MAX_ITEMS_AT_ONCE,
  safetyFirst,
  unsafeForAChild,
  wantsCollection,
} from './said-items';

describe('reading the things out of what a person says', () => {
  it.each([
    ['I have a bag of kids clothes and some old books to give away', ['kids clothes', 'old books']],
    ["I'd like to give away my winter coat, please", ['winter coat']],
    ['donate a broken umbrella', ['broken umbrella']],
    ['Where can I drop off these old paperbacks?', ['old paperbacks']],
    ['a wooden chair', ['wooden chair']],
    ['could I donate a wooden chair?', ['wooden chair']],
    ['  kettle  ', ['kettle']],
    ['a box of books', ['books']],
    ['hi, I have two boxes of toys and a lamp', ['toys', 'lamp']],
    ['Books, mugs and cables', ['books', 'mugs', 'cables']],
    ["I've got some old jeans I no longer wear", ['old jeans']],
    ['a sofa, could you collect it?', ['sofa']],
    ['Got a lamp and a kettle', ['lamp', 'kettle']],
    ["I'm getting rid of some jumpers", ['jumpers']],
    ['I want to donate my old sofa', ['old sofa']],
    ['I have a box of kids clothes, mostly size 4-6, and a high chair', ['kids clothes', 'high chair']],
    ['a pram, barely used, and a cot', ['pram', 'cot']],
    ['a desk, with its chair', ['desk']],
    ['my old sofa and a couple of kids bikes', ['old sofa', 'kids bikes']],
    // what is said of a thing after its name is not part of the name
    ['I have a bag of kids clothes and an old kettle that still works', ['kids clothes', 'old kettle']],
    ['a lamp which needs a new plug, and some books', ['lamp', 'books']],
    // a sentence of its own first, then the things, each part as it was said
    [
      "we're moving next month, I have a sofa, a cot my son has outgrown and about 4 boxes of books",
      ['sofa', 'cot', 'books'],
    ],
    ['a high chair the kids have outgrown', ['high chair']],
    [
      "I've got a kids bike my daughter grew out of and a microwave that still works, where can they go?",
      ['kids bike', 'microwave'],
    ],
    // sentences of their own, each leading with its own words; the place being cleared is no thing
    [
      "hi, I'm clearing out my mum's flat. there's a dining table with 4 chairs, loads of kitchen stuff and two bags of her clothes",
      ['dining table with 4 chairs', 'kitchen stuff', 'clothes'],
    ],
    ["We're clearing out the garage. Got a bike and a lawnmower.", ['bike', 'lawnmower']],
    // the place said first, then what is in it, as a phone types it
    [
      'clearing out the garage: an old exercise bike, a box of paperbacks and some paint tins',
      ['old exercise bike', 'paperbacks', 'paint tins'],
    ],
    ['getting rid of some books and a lamp', ['books', 'lamp']],
    // whose it was is no part of its name
    ["got a kettle, a toaster and my son's old bike", ['kettle', 'toaster', 'old bike']],
    // asked after as a question, or said goodbye to: the thing, and no thing
    ['what about the mattress for the cot?', ['mattress for the cot']],
    ['do you take electricals?', ['electricals']],
    ['thanks, bye', []],
    // how much it was used says more of it, and names nothing
    ['a double buggy, only used for one kid', ['double buggy']],
    ['a cot, used for a year', ['cot']],
    ['some used books', ['used books']],
    // where they are is no thing, typed with its apostrophe or without
    ['hi! got a box of kids books and a scooter, im in manchester', ['kids books', 'scooter']],
    // asked after by whether it may be given
    [
      "we're moving house next month and I have a cot, a pram and a load of baby clothes to get rid of. is the cot mattress ok to give?",
      ['cot', 'pram', 'baby clothes', 'cot mattress'],
    ],
    // "and have …" after a sentence of its own: the "we" said before
    [
      "we're moving house next month and have a sofa bed and a load of kitchen stuff to get rid of, we're in Leeds",
      ['sofa bed', 'kitchen stuff'],
    ],
    // a loss told is no thing to give away; how much there is is no part of a name
    [
      "my nan passed away and we need to clear her flat, there's a lot of furniture and ornaments",
      ['furniture', 'ornaments'],
    ],
    ['are old towels fine to donate?', ['old towels']],
    ['would a used car seat be ok for charity?', ['used car seat']],
    ["I've got 3 bags of clothes, can someone pick them up tomorrow?", ['clothes']],
    ['can you find somewhere for my old laptop? it has personal stuff on it', ['old laptop']],
    // what is wrong with it is part of its name, articles and all
    [
      'a high chair with a missing strap and a box of baby clothes',
      ['high chair with a missing strap', 'baby clothes'],
    ],
  ])('%j names %j', (text, items) => expect(itemsIn(text)).toEqual(items));

  it.each([
    ['donate '],
    ["I'd rather it were collected"],
    ['Can someone pick it up?'],
    ['hello'],
    ['What do you do?'],
    ['I am not sure what I want to do with all of this stuff'],
    ["they're in good condition, just one box"],
    ['two bags'],
    ["it's quite worn"],
    // replies to a question about the things, typed at it
    ['mostly, a few have stains'],
    ['yes mostly'],
  ])('%j names no thing, rather than being quoted as one', (text) => expect(itemsIn(text)).toEqual([]));

  it('takes a few things at a time from a long list', () =>
    expect(itemsIn('a lamp, a kettle, some mugs, two plates, a rug and a chair')).toHaveLength(
      MAX_ITEMS_AT_ONCE,
    ));
});

describe('hearing that a person would rather it were collected', () => {
  it.each([
    ["I'd rather it were collected", true],
    ['Can someone pick it up?', true],
    ['could you collect them please', true],
    ['a sofa for collection', true],
    ['a winter coat', false],
    ["I'd rather not have it collected", false],
  ])('%j: %s', (text, wanted) => expect(wantsCollection(text)).toBe(wanted));
});

describe('things never passed on second-hand, for safety', () => {
  it.each(['car seat from 2015', 'baby car seat', 'bike helmet', 'cot mattress', 'mattress for the cot'])(
    '%j is one',
    (item) => expect(safetyFirst(item)).toBe(true),
  );
  it.each(['high chair', 'old seat cushions', 'pram'])('%j is not', (item) =>
    expect(safetyFirst(item)).toBe(false),
  );
  it('is not asked about its condition, old or not', () =>
    expect(conditionInDoubt('old car seat')).toBe(false));
});

describe("a child's thing damaged or missing a part", () => {
  it.each([
    'high chair with a missing strap',
    'cot with a broken slat',
    'torn baby carrier',
    'cracked stair gate',
    'teddy with a missing eye',
  ])('%j is not safe for another child as it is', (item) => expect(unsafeForAChild(item)).toBe(true));
  it.each(['high chair', 'old pram', 'lamp with a missing shade', 'old toys'])('%j is not one', (item) =>
    expect(unsafeForAChild(item)).toBe(false),
  );
});

describe('whether only the person can say a thing is fit to give', () => {
  it.each([
    ['old books', true],
    ['used toys', true],
    ['broken old umbrella', false],
    ['winter coat', false],
    ['old batteries', false],
  ])('%s: %s', (item, doubt) => expect(conditionInDoubt(item)).toBe(doubt));

  it.each([
    ['kids clothes', true],
    ['old books', true],
    ['winter coat', false],
    ['glass', false],
    ['jeans', true],
  ])('%s is plural: %s', (item, plural) => expect(isPlural(item)).toBe(plural));
});

describe('how many bags or boxes of a thing the words said', () => {
  it.each([
    ['I have a bag of kids clothes and some old books', 'kids clothes', 1],
    ['I have a bag of kids clothes and some old books', 'old books', undefined],
    ['two boxes of toys and a lamp', 'toys', 2],
    ['3 big bags of old books', 'old books', 3],
    ['an old kettle', 'old kettle', undefined],
    ['a box full of books', 'books', 1],
    ['a crate of vinyl records', 'vinyl records', 1],
    ['loads of kitchen stuff and two bags of her clothes', 'clothes', 2],
  ])('%j says of %j: %j', (text, item, bags) => expect(bagsOf(text, item)).toBe(bags));
});

describe('whether the words after a thing say it is in good condition', () => {
  it.each([
    ['I have an old kettle that still works', 'old kettle', true],
    ["my old bike, it's fine", 'old bike', false],
    ['my old bike, in good condition', 'old bike', true],
    ['an old pram, barely used, and a cot', 'old pram', true],
    ['some old books that are like new', 'old books', true],
    ['I have an old kettle', 'old kettle', false],
    ['an old lamp that works but the shade is torn', 'old lamp', false],
    ['an old lamp that is broken', 'old lamp', false],
  ])('%j of %j: %j', (text, item, good) => expect(saidGood(text, item)).toBe(good));
});

describe('whether the words after a thing say it no longer works', () => {
  it.each([
    ["I have an old microwave that doesn't heat anymore", 'old microwave', true],
    ["an old microwave that doesn't work", 'old microwave', true],
    ["my kettle, it's dead", 'kettle', true],
    ['a lamp which is broken', 'lamp', true],
    ['a hoover that stopped working', 'hoover', true],
    ['I have an old kettle that still works', 'old kettle', false],
    ['an old microwave', 'old microwave', false],
    ["an old microwave, I don't need it", 'old microwave', false],
  ])('%j of %j: %j', (text, item, broken) => expect(saidBroken(text, item)).toBe(broken));
});

describe('electricals, which are never binned', () => {
  it.each([
    ['old microwave', true],
    ['broken lamp', true],
    ['hair dryer', true],
    ['broken umbrella', false],
    ['old books', false],
  ])('%j: %j', (item, is) => expect(electrical(item)).toBe(is));
});
