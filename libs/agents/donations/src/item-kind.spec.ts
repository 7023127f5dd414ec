import { itemIn, kindOf } from './item-kind';

describe('reading the item out of a message', () => {
  it.each([
    ["I'd like to give away my winter coat, please", 'winter coat'],
    ['donate a broken umbrella', 'broken umbrella'],
    ['Where can I drop off these old paperbacks?', 'old paperbacks'],
    ['a wooden chair', 'wooden chair'],
    ['could I donate a wooden chair?', 'wooden chair'],
    ['  kettle  ', 'kettle'],
  ])('%j names %j', (text, item) => expect(itemIn(text)).toBe(item));

  it('keeps the whole message when nothing but the asking is left', () =>
    expect(itemIn('donate ')).toBe('donate'));

  it.each([
    ['winter coat', 'clothes'],
    ['old paperbacks', 'books'],
    ['box of lego', 'toys'],
    ['wooden chair', 'furniture'],
    ['reading lamp', 'electronics'],
    ['something odd', 'anything'],
  ])('a %s goes where %s are taken', (item, kind) => expect(kindOf(item)).toBe(kind));
});
